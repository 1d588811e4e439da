/**
 * Calendar arithmetic on date-only values ('YYYY-MM-DD') and months ('YYYY-MM'), done in UTC so no time zone
 * can move a day. Shared by the dashboard service and the season calendar, on the server and in the browser.
 */
import { dateFormatter, keptText } from './format.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

const utc = (day: string) => new Date(`${day}T00:00:00Z`);
const dayText = (date: Date) => date.toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return dayText(new Date(utc(day).getTime() + days * DAY_MS));
}

export const monthOfDay = (day: string) => day.slice(0, 7);

/** A month given in a URL, or null when it is not a real 'YYYY-MM' (years 1900–2199). */
export function parseMonth(text: string | null | undefined): string | null {
  const match = MONTH.exec(text ?? '');
  if (!match) return null;
  const year = Number(match[1]);
  return year >= 1900 && year < 2200 ? text! : null;
}

export function addMonths(month: string, months: number): string {
  const [year, index] = month.split('-').map(Number) as [number, number];
  const total = year * 12 + (index - 1) + months;
  return `${String(Math.floor(total / 12)).padStart(4, '0')}-${String((total % 12) + 1).padStart(2, '0')}`;
}

/** The last `count` months up to and including `month`, oldest first. */
export function monthsUpTo(month: string, count: number): string[] {
  return Array.from({ length: count }, (_, index) => addMonths(month, index - count + 1));
}

/** The weeks (Monday first) that show a month: seven days each, the days of the months around it included. */
export function monthWeeks(month: string): string[][] {
  const first = `${month}-01`;
  const mondayOffset = (utc(first).getUTCDay() + 6) % 7;
  const start = addDays(first, -mondayOffset);
  const next = `${addMonths(month, 1)}-01`;
  const weeks: string[][] = [];
  for (let day = start; day < next; day = addDays(day, 7)) weeks.push(Array.from({ length: 7 }, (_, index) => addDays(day, index)));
  return weeks;
}

/** 'March 2027' in the visitor's locale. */
export function monthTitle(month: string, locale: string): string {
  return keptText(`month-title|${locale}|${month}`, () =>
    dateFormatter(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(utc(`${month}-01`)),
  );
}

/** 'Mar' (or 'Mar 27' with the year) in the visitor's locale. */
export function shortMonth(month: string, locale: string, withYear = false): string {
  // The dashboard's spend chart names 24 months a render: kept, they cost a lookup instead of Intl's format.
  return keptText(`month-short|${locale}|${withYear ? 'year' : ''}|${month}`, () =>
    dateFormatter(locale, { month: 'short', ...(withYear ? { year: '2-digit' } : {}), timeZone: 'UTC' }).format(utc(`${month}-01`)),
  );
}
