import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

function contentSecurityPolicy(scriptSources: string): string {
  return [
    "default-src 'self'",
    `script-src ${scriptSources}`,
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
}

/** JSON answers and downloads never carry an inline script, so they need no nonce (and no random bytes). */
const WITHOUT_INLINE_SCRIPTS = contentSecurityPolicy("'self'");

/** A per-page nonce lets the hydration script run while every other inline script is refused. */
export function securityHeaders() {
  return (req: Request, res: Response, next: NextFunction) => {
    let policy = WITHOUT_INLINE_SCRIPTS;
    if (!req.path.startsWith('/api/')) {
      const nonce = randomBytes(16).toString('base64');
      req.cspNonce = nonce;
      policy = contentSecurityPolicy(`'self' 'nonce-${nonce}'`);
    }
    res.set({
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
    });
    next();
  };
}
