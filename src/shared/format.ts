/**
 * Formatting shared by server and browser. The server formats with the locale and zone the browser sent, and the
 * browser hydrates with the same values from the root loader, so the text never differs between the two.
 * Intl formatters are costly to build (a list page formats dozens of dates), so each is built once and kept.
 */
import { BoundedCache } from './bounded-cache.js';

export interface FormatOptions {
  locale: string;
  timeZone: string;
}

const formatters = new BoundedCache<string, Intl.DateTimeFormat | Intl.NumberFormat>(500);

function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, build: () => T): T {
  return formatters.get(key, build) as T;
}

/** A date formatter for these options, built once per locale and options. */
export function dateFormatter(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cached(`dtf|${locale}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale, options));
}

/**
 * Formatting costs more than looking the text up (Intl's format is a few microseconds a value, and a page shows
 * dozens), and pages repeat their values: a page of cards shows few distinct days, and every render of a record
 * formats the same stamps and amounts again.
 */
const formatted = new BoundedCache<string, string>(5000);

/** Text made by `format` once per key and kept, for values pages repeat on every render (month names, say). */
export function keptText(key: string, format: () => string): string {
  return formatted.get(key, format);
}

/** A date-only value ('YYYY-MM-DD') is a calendar day: formatted in UTC so no zone can move it. */
export function formatDate(value: string | null | undefined, { locale }: FormatOptions): string {
  if (!value) return '';
  const day = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
  if (!day) return value;
  return keptText(`date|${locale}|${day}`, () => {
    const formatter = cached(
      `date|${locale}`,
      () => new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }),
    );
    return formatter.format(new Date(`${day}T00:00:00Z`));
  });
}

export function formatDateTime(value: string | null | undefined, { locale, timeZone }: FormatOptions): string {
  if (!value) return '';
  return keptText(`datetime|${locale}|${timeZone}|${value}`, () => {
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) return value;
    const formatter = cached(
      `datetime|${locale}|${timeZone}`,
      () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }),
    );
    return formatter.format(date);
  });
}

/**
 * Amounts in dollars, written the one way every screen writes them: '$95.00', the narrow symbol in every locale
 * (an en-US reader would otherwise get 'A$95.00' beside the '$95' typed in a record's own text).
 */
export function formatMoney(value: string | null | undefined, { locale }: Pick<FormatOptions, 'locale'>): string {
  return keptText(`money|${locale}|${value ?? ''}`, () => {
    const formatter = cached(
      `money|${locale}`,
      () => new Intl.NumberFormat(locale, { style: 'currency', currency: 'AUD', currencyDisplay: 'narrowSymbol' }),
    );
    return formatter.format(Number(value ?? 0));
  });
}

/** Whole dollars for a chart's scale ('$5,000'): an axis needs no cents. */
export function formatWholeMoney(value: number, { locale }: Pick<FormatOptions, 'locale'>): string {
  const formatter = cached(
    `money-whole|${locale}`,
    () => new Intl.NumberFormat(locale, { style: 'currency', currency: 'AUD', currencyDisplay: 'narrowSymbol', maximumFractionDigits: 0 }),
  );
  return formatter.format(value);
}

/** The calendar day an instant falls on in a time zone (en-CA formats as YYYY-MM-DD). */
export function dayInZone(instant: Date, timeZone: string): string {
  return dateFormatter('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}
