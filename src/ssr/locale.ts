import type { Request } from 'express';

export const DEFAULT_LOCALE = 'en-AU';

/** The browser's first supported language, so server-rendered dates match what the browser would show. */
export function localeOf(req: Request): string {
  const header = req.get('accept-language') ?? '';
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim();
    if (!tag || tag === '*') continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf([tag]);
      if (supported) return supported;
    } catch {
      // An invalid tag: try the next one.
    }
  }
  return DEFAULT_LOCALE;
}

/** The browser reports its zone in a cookie; until it has, timestamps are shown in UTC on both sides. */
export function timeZoneOf(req: Request): string {
  const match = /(?:^|;\s*)tz=([^;]+)/.exec(req.get('cookie') ?? '');
  const zone = match?.[1] ? decodeURIComponent(match[1]) : 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}
