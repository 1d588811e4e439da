import { createHmac, randomBytes } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA-1, 30-second steps, 6 digits, the
 * step before and after accepted for clock drift. Written on node:crypto (docs/decisions/0102): the algorithm is a
 * dozen lines, and the RFC's own test vectors check it (test/unit/totp.test.ts).
 */
const TOTP_STEP_SECONDS = 30;
const DRIFT_STEPS = 1;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/=+$/, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('not base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret: 160 random bits (RFC 4226's recommended length), in base32 as authenticator apps take it. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

/** The 30-second step a moment falls in. */
export const totpStepAt = (ms: number) => Math.floor(ms / 1000 / TOTP_STEP_SECONDS);

/** HOTP (RFC 4226) of a raw key at a counter: dynamic truncation, the last `digits` decimal digits. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The code an authenticator app shows for a base32 secret at a step. */
export const totpCode = (secret: string, step: number) => hotp(base32Decode(secret), step);

/**
 * The step a code belongs to, among the step of `nowMs` and the one on either side, or undefined. Steps at or before
 * `lastUsedStep` never match: a code accepted once is not accepted again in its window (no replay).
 */
export function matchTotp(secret: string, code: string, nowMs: number, lastUsedStep: number | null): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const key = base32Decode(secret);
  const now = totpStepAt(nowMs);
  let matched: number | undefined;
  // Every candidate is computed, so the time taken does not say which one matched.
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    const same = hotp(key, step) === code;
    if (same && (lastUsedStep === null || step > lastUsedStep) && matched === undefined) matched = step;
  }
  return matched;
}

/** The otpauth:// URL an authenticator app reads from the QR code (Key Uri Format). */
export function otpauthUrl(secret: string, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({ secret, issuer, algorithm: 'SHA1', digits: '6', period: String(TOTP_STEP_SECONDS) });
  return `otpauth://totp/${label}?${params.toString()}`;
}
