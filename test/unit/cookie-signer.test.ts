import { describe, expect, it } from 'vitest';
import { CookieSigner } from '@server/cookie-signer.js';

// Made with cookie-session's default signer (Keygrip) for the same data and keys: sessions issued before the
// switch must stay valid.
const KEYGRIP_SIGNATURES = { 'old-secret': 'pFfrRnOB3dt2hF5XyAp7OGOy-HA', 'new-secret': '6bbUNIqRw8b270kQGnUMAQvEDwY' };
const DATA = 'pacer=eyJ1aWQiOjF9';

describe('session cookie signer', () => {
  it('signs exactly as Keygrip did, with the first key', () => {
    expect(new CookieSigner(['old-secret', 'new-secret']).sign(DATA)).toBe(KEYGRIP_SIGNATURES['old-secret']);
    expect(new CookieSigner(['new-secret']).sign(DATA)).toBe(KEYGRIP_SIGNATURES['new-secret']);
  });

  it('accepts a signature of any of its keys and says which one', () => {
    const signer = new CookieSigner(['new-secret', 'old-secret']);
    expect(signer.index(DATA, KEYGRIP_SIGNATURES['new-secret'])).toBe(0);
    expect(signer.index(DATA, KEYGRIP_SIGNATURES['old-secret'])).toBe(1);
    expect(signer.verify(DATA, KEYGRIP_SIGNATURES['old-secret'])).toBe(true);
  });

  it('refuses changed data, a forged or truncated signature, and a signature of another key', () => {
    const signer = new CookieSigner(['new-secret']);
    const good = KEYGRIP_SIGNATURES['new-secret'];
    expect(signer.verify('pacer=eyJ1aWQiOjJ9', good)).toBe(false);
    expect(signer.verify(DATA, good.slice(0, -1))).toBe(false);
    expect(signer.verify(DATA, `${good.slice(0, -1)}A`)).toBe(false);
    expect(signer.verify(DATA, '')).toBe(false);
    expect(signer.verify(DATA, KEYGRIP_SIGNATURES['old-secret'])).toBe(false);
  });
});
