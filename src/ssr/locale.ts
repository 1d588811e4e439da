import type { Request } from 'express';

export const DEFAULT_LOCALE = 'en-AU';

const localeByHeader = new Map<string, string>();

/** The browser's first supported language, so server-rendered dates match what the browser would show. */
export function localeOf(req: Request): string {
  const header = req.get('accept-language') ?? '';
  let locale = localeByHeader.get(header);
  if (locale === undefined) {
    locale = firstSupportedLocale(header);
    // Intl's lookup costs more than the rest of a small API answer; browsers send few distinct headers. Bounded,
    // since the header is the client's to choose.
    if (localeByHeader.size < 1000) localeByHeader.set(header, locale);
  }
  return locale;
}

function firstSupportedLocale(header: string): string {
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

const knownZones = new Map<string, boolean>();

function isTimeZone(zone: string): boolean {
  let known = knownZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    // Bounded: the cookie is the client's to choose.
    if (knownZones.size < 1000) knownZones.set(zone, known);
  }
  return known;
}

/** The browser reports its zone in a cookie; until it has, timestamps are shown in UTC on both sides. */
export function timeZoneOf(req: Request): string {
  const match = /(?:^|;\s*)tz=([^;]+)/.exec(req.get('cookie') ?? '');
  if (!match?.[1]) return 'UTC';
  let zone: string;
  try {
    zone = decodeURIComponent(match[1]);
  } catch {
    return 'UTC';
  }
  return isTimeZone(zone) ? zone : 'UTC';
}
