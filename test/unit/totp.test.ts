import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUrl, totpCode, totpStepAt } from '@services/auth/totp.js';

// RFC 6238 appendix B, SHA-1: the ASCII key "12345678901234567890", 8 digits.
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(RFC_VECTORS)('matches the RFC test vector at T=%i', (seconds, code) => {
    expect(hotp(RFC_KEY, totpStepAt(seconds * 1000), 8)).toBe(code);
    // Six digits are the last six of the same number.
    expect(hotp(RFC_KEY, totpStepAt(seconds * 1000))).toBe(code.slice(2));
  });

  it('reads and writes base32 as authenticator apps do', () => {
    expect(base32Encode(RFC_KEY)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ').equals(RFC_KEY)).toBe(true);
    expect(totpCode('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', totpStepAt(59_000))).toBe('287082');
  });

  it('accepts the step before and after, not two away, and never a step at or before the last used one', () => {
    const secret = base32Encode(RFC_KEY);
    const now = 1234567890_000;
    const step = totpStepAt(now);
    expect(matchTotp(secret, totpCode(secret, step), now, null)).toBe(step);
    expect(matchTotp(secret, totpCode(secret, step - 1), now, null)).toBe(step - 1);
    expect(matchTotp(secret, totpCode(secret, step + 1), now, null)).toBe(step + 1);
    expect(matchTotp(secret, totpCode(secret, step - 2), now, null)).toBeUndefined();
    expect(matchTotp(secret, totpCode(secret, step), now, step)).toBeUndefined();
    expect(matchTotp(secret, totpCode(secret, step + 1), now, step)).toBe(step + 1);
    expect(matchTotp(secret, 'abcdef', now, null)).toBeUndefined();
  });

  it('writes the otpauth URL with issuer, account and parameters', () => {
    expect(otpauthUrl('ABC', 'ana@example.org', 'Pacer CRM')).toBe(
      'otpauth://totp/Pacer%20CRM:ana%40example.org?secret=ABC&issuer=Pacer+CRM&algorithm=SHA1&digits=6&period=30',
    );
  });
});
