import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

/** A per-response nonce lets the hydration script run while every other inline script is refused. */
export function securityHeaders() {
  return (req: Request, res: Response, next: NextFunction) => {
    const nonce = randomBytes(16).toString('base64');
    req.cspNonce = nonce;
    res.set({
      'Content-Security-Policy': [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        // Radix positions popovers with inline style attributes.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'X-Frame-Options': 'DENY',
    });
    next();
  };
}
