/**
 * The device class a list's remembered layout is kept for: a table chosen on a laptop does not follow the user to
 * their phone. The browser reports its class in a cookie (from the width of its screen), so the server's first
 * paint already uses the right layout.
 */
export type DeviceClass = 'phone' | 'desktop';

export const DEVICE_COOKIE = 'device';

/** The phone layout's width, the same as the stylesheet's phone rules. */
export const PHONE_MEDIA_QUERY = '(max-width: 767.98px)';

/**
 * The class a request comes from: the browser's cookie, else (before any page has run its script, such as a
 * deep link opened right after sign-in) a phone's user agent, which names "Mobi".
 */
export function deviceClassOf(cookieHeader: string | undefined, userAgent: string | undefined): DeviceClass {
  const reported = /(?:^|;\s*)device=([^;]+)/.exec(cookieHeader ?? '')?.[1];
  if (reported === 'phone' || reported === 'desktop') return reported;
  return /Mobi/.test(userAgent ?? '') ? 'phone' : 'desktop';
}
