import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeDecimal, decodeTimestamp, encodeTimestamp, normaliseDecimalText, sumMoney } from '../../src/db/codecs.js';

describe('codecs', () => {
  it('keeps money exact: 0.10 + 0.20 is 0.30', () => {
    expect(sumMoney(['0.10', '0.20'])).toBe('0.30');
    expect(sumMoney(['-5.5', '10', null])).toBe('4.50');
    expect(decodeDecimal(0.30000000000000004, 2)).toBe('0.30');
  });

  it('sums any list of cents exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -99_999_999, max: 99_999_999 })), (cents) => {
        const total = cents.reduce((a, b) => a + b, 0);
        const text = cents.map((c) => `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`);
        expect(sumMoney(text)).toBe(`${total < 0 ? '-' : ''}${Math.floor(Math.abs(total) / 100)}.${String(Math.abs(total) % 100).padStart(2, '0')}`);
      }),
    );
  });

  it('normalises decimals to the column scale, rounding half away from zero', () => {
    expect(normaliseDecimalText('12', 2)).toBe('12.00');
    expect(normaliseDecimalText('-33.868820123', 8)).toBe('-33.86882012');
    expect(normaliseDecimalText('1.005', 2)).toBe('1.01');
    expect(() => normaliseDecimalText('1e3', 2)).toThrow();
  });

  it('round-trips UTC timestamps through the stored text', () => {
    const instant = '2026-11-21T23:59:58.123Z';
    expect(encodeTimestamp(instant)).toBe('2026-11-21 23:59:58.123');
    expect(decodeTimestamp(encodeTimestamp(instant))).toBe(instant);
    expect(decodeTimestamp('2026-11-21 23:59:58')).toBe('2026-11-21T23:59:58.000Z');
  });
});
