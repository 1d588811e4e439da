/**
 * Formatting shared by server and browser. The server formats with the locale and zone the browser sent, and the
 * browser hydrates with the same values from the root loader, so the text never differs between the two.
 */
export interface FormatOptions {
  locale: string;
  timeZone: string;
}

/** A date-only value ('YYYY-MM-DD') is a calendar day: formatted in UTC so no zone can move it. */
export function formatDate(value: string | null | undefined, { locale }: FormatOptions): string {
  if (!value) return '';
  const day = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0];
  if (!day) return value;
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

export function formatDateTime(value: string | null | undefined, { locale, timeZone }: FormatOptions): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(date);
}

export function formatMoney(value: string | null | undefined, { locale }: Pick<FormatOptions, 'locale'>): string {
  const amount = Number(value ?? 0);
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'AUD' }).format(amount);
}
