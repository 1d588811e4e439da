import { BoundedCache } from './bounded-cache.js';
import { parseThemeChoice, THEME_COOKIE, type ThemeChoice } from './theme.js';

/**
 * What a page is rendered in, read from a request's headers: language, time zone, colour theme. Plain parsing with
 * Intl, so the web server and the rendering (src/ssr/) share it without one importing the other.
 */

/** What these read of a request: its headers, and the theme read with its session. Express's Request has both. */
interface RequestHeaders {
  get(name: string): string | undefined;
  themePreference?: ThemeChoice;
}

const DEFAULT_LOCALE = 'en-AU';

/** Intl's lookup costs more than the rest of a small API answer, and browsers send few distinct headers. */
const localeByHeader = new BoundedCache<string, string>(1000);

/** The browser's first supported language, so server-rendered dates match what the browser would show. */
export function localeOf(req: RequestHeaders): string {
  const header = req.get('accept-language') ?? '';
  return localeByHeader.get(header, () => firstSupportedLocale(header));
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

const knownZones = new BoundedCache<string, boolean>(1000);

function isTimeZone(zone: string): boolean {
  return knownZones.get(zone, () => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  });
}

/** The browser reports its zone in a cookie; until it has, timestamps are shown in UTC on both sides. */
export function timeZoneOf(req: RequestHeaders): string {
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

const themeCookie = new RegExp(`(?:^|;\\s*)${THEME_COOKIE}=([^;]+)`);

/**
 * The visitor's colour theme, read where the page is rendered so the first paint already has it: the signed-in
 * user's saved choice (read with their session, so it follows them to every browser), else this browser's
 * cookie (the sign-in page, or a user who never chose).
 */
export function themeOf(req: RequestHeaders): ThemeChoice {
  return req.themePreference ?? parseThemeChoice(themeCookie.exec(req.get('cookie') ?? '')?.[1]);
}
