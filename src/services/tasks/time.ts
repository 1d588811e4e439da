import type { AppContext } from '../context.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function partsIn(zone: string, at: Date): Record<string, string> {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(zone, format);
  }
  return Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
}

/** The organisation's calendar day (YYYY-MM-DD, ORG_TIME_ZONE) at `at` (now by default). */
export function orgToday(ctx: AppContext, at: Date = ctx.clock.now()): string {
  const p = partsIn(ctx.config.orgTimeZone, at);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The organisation's time of day (HH:MM). */
export function orgTimeOfDay(ctx: AppContext, at: Date = ctx.clock.now()): string {
  const p = partsIn(ctx.config.orgTimeZone, at);
  return `${p.hour}:${p.minute}`;
}

/** A calendar day `days` after another. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
