import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signs and checks the session cookie for cookie-session, in place of its default Keygrip. The signatures are the
 * same (HMAC-SHA1, base64url), so cookies issued before stay valid; the check uses Node's constant-time compare
 * instead of Keygrip's, which draws fresh random bytes and computes two extra HMACs on every request.
 * The first key signs; every key verifies, so a secret can be rotated without signing everyone out.
 */
export class CookieSigner {
  constructor(private readonly keys: readonly string[]) {
    if (keys.length === 0) throw new Error('CookieSigner needs at least one key');
  }

  sign(data: string, key: string = this.keys[0]!): string {
    return createHmac('sha1', key).update(data).digest('base64url');
  }

  verify(data: string, digest: string): boolean {
    return this.index(data, digest) > -1;
  }

  /** Which key made `digest`, or -1. */
  index(data: string, digest: string): number {
    const given = Buffer.from(digest);
    for (let i = 0; i < this.keys.length; i++) {
      const expected = Buffer.from(this.sign(data, this.keys[i]));
      if (expected.length === given.length && timingSafeEqual(expected, given)) return i;
    }
    return -1;
  }
}
