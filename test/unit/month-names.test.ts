import { describe, expect, it } from 'vitest';
import { monthTitle, shortMonth } from '@shared/calendar.js';

/** What Intl itself names the month (locale data differs between ICU versions, so it is the reference). */
const intl = (locale: string, options: Intl.DateTimeFormatOptions, year: number, month: number) =>
  new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(Date.UTC(year, month - 1, 1));

describe('month names (spend chart, season calendar)', () => {
  it("names a month in the visitor's locale, short with or without its year and in full, alike on every call", () => {
    for (let call = 0; call < 2; call++) {
      expect(shortMonth('2027-03', 'en-AU')).toBe('Mar');
      expect(shortMonth('2027-04', 'en-AU')).toBe('Apr');
      expect(shortMonth('2027-03', 'en-AU', true)).toBe(intl('en-AU', { month: 'short', year: '2-digit' }, 2027, 3));
      expect(shortMonth('2027-03', 'de-DE')).toBe(intl('de-DE', { month: 'short' }, 2027, 3));
      expect(shortMonth('2027-03', 'de-DE')).not.toBe('Mar');
      expect(monthTitle('2027-03', 'en-AU')).toBe('March 2027');
      expect(monthTitle('2027-03', 'fr-FR')).toBe(intl('fr-FR', { month: 'long', year: 'numeric' }, 2027, 3));
    }
  });
});
