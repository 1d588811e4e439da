import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney, formatWholeMoney } from '@shared/format.js';

describe('formatting shared by server and browser', () => {
  it('never shifts a date-only value by a time zone', () => {
    expect(formatDate('2027-03-14', { locale: 'en-AU', timeZone: 'Pacific/Honolulu' })).toBe('14 Mar 2027');
    expect(formatDate('2027-03-14', { locale: 'en-US', timeZone: 'Australia/Sydney' })).toBe('Mar 14, 2027');
    expect(formatDate(null, { locale: 'en-AU', timeZone: 'UTC' })).toBe('');
    // Remembered per locale: the same day asked again in the first locale keeps that locale's form.
    expect(formatDate('2027-03-14', { locale: 'en-AU', timeZone: 'UTC' })).toBe('14 Mar 2027');
    expect(formatDate('2027-03-14T10:00:00.000Z', { locale: 'en-US', timeZone: 'UTC' })).toBe('Mar 14, 2027');
  });

  it('shows instants in the given zone and locale, with formatters reused per locale and zone', () => {
    const instant = '2026-11-21T23:30:00.000Z';
    const sydney = formatDateTime(instant, { locale: 'en-AU', timeZone: 'Australia/Sydney' });
    const utc = formatDateTime(instant, { locale: 'en-AU', timeZone: 'UTC' });
    expect(sydney).toContain('22 Nov 2026');
    expect(utc).toContain('21 Nov 2026');
    expect(formatDateTime(instant, { locale: 'en-AU', timeZone: 'Australia/Sydney' })).toBe(sydney);
  });

  it('formats money in the locale', () => {
    expect(formatMoney('1234.5', { locale: 'en-AU' })).toBe('$1,234.50');
  });

  it('writes dollars one way in every locale (no "A$" beside "$"), and whole dollars for a chart scale', () => {
    expect(formatMoney('95', { locale: 'en-US' })).toBe('$95.00');
    expect(formatMoney('95', { locale: 'en-GB' })).toBe('$95.00');
    expect(formatWholeMoney(5000, { locale: 'en-AU' })).toBe('$5,000');
    expect(formatWholeMoney(5000, { locale: 'en-US' })).toBe('$5,000');
  });
});
