import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeDecimal,
  decodeRow,
  decodeRows,
  decodeTimestamp,
  encodeTimestamp,
  normaliseDecimalText,
  sumMoney,
  type ColumnKinds,
} from '@db/codecs.js';

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
        expect(sumMoney(text)).toBe(
          `${total < 0 ? '-' : ''}${Math.floor(Math.abs(total) / 100)}.${String(Math.abs(total) % 100).padStart(2, '0')}`,
        );
      }),
    );
  });

  it('decodes a result set by column kind, keeps other columns as they are and drops helper columns', () => {
    const kinds: ColumnKinds = { featured: 'boolean', tags: 'list', spend: { kind: 'money', scale: 2 }, startDate: 'date' };
    const rows = [
      { id: 1, name: 'Harbour "Run"', featured: 1, tags: '["road"]', spend: '12.5', startDate: '2027-03-14', total0: 9 },
      { id: 2, name: null, featured: 0, tags: null, spend: null, startDate: null, total0: 9 },
    ];
    expect(decodeRows(kinds, rows, ['total0'])).toEqual([
      { id: 1, name: 'Harbour "Run"', featured: true, tags: ['road'], spend: '12.50', startDate: '2027-03-14' },
      { id: 2, name: null, featured: false, tags: [], spend: null, startDate: null },
    ]);
    // A column name that is not an identifier (even one with quotes) is copied like any other.
    expect(decodeRow(kinds, { 'odd "name"\'': 'x', featured: '1' })).toEqual({ 'odd "name"\'': 'x', featured: true });
    expect(decodeRows(kinds, [])).toEqual([]);
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

describe('row decoding', () => {
  it('decodes each kind of column and leaves the rest alone', async () => {
    const { decodeRow } = await import('@db/codecs.js');
    const kinds = {
      flag: 'boolean',
      tags: 'list',
      money: { kind: 'money', scale: 2 },
      day: 'date',
      at: 'timestamp',
      n: 'integer',
    } as const;
    expect(
      decodeRow(kinds, {
        flag: 1,
        tags: '["a","b"]',
        money: 0.1 + 0.2,
        day: '2027-03-14',
        at: '2026-11-21 10:00:00.5',
        n: '7',
        other: 'x',
      }),
    ).toEqual({ flag: true, tags: ['a', 'b'], money: '0.30', day: '2027-03-14', at: '2026-11-21T10:00:00.500Z', n: 7, other: 'x' });
    expect(decodeRow(kinds, { at: '2026-11-21 10:00:00', tags: null })).toEqual({ at: '2026-11-21T10:00:00.000Z', tags: [] });
  });
});
