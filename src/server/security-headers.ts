import type { NextFunction, Request, Response } from 'express';
import type { Config } from '@config/env.js';

/**
 * Scripts only from our own origin: pages carry no inline script at all (the router's data travels in a JSON
 * block, which never runs), so an injected inline script is always refused.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Radix positions popovers with inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A year of HTTPS only, for this host alone (other sites of the organisation's domain are not ours to bind). Sent
 * only when cookies are Secure, which says the site is served over HTTPS, and only on answers that travelled over
 * HTTPS: browsers ignore it over plain HTTP, where RFC 6797 forbids sending it.
 */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** The same on every answer: set as they are (Express's res.set would re-check each one on every request). */
const EVERY_ANSWER: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'same-origin'],
  ['X-Frame-Options', 'DENY'],
];

export function securityHeaders(config: Pick<Config, 'cookieSecure'>) {
  return (req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of EVERY_ANSWER) res.setHeader(name, value);
    if (config.cookieSecure && req.secure) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    next();
  };
}
