import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('Strict-Transport-Security', () => {
  let secure: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    secure = await createTestApp({ env: { COOKIE_SECURE: 'true', TRUST_PROXY: 'loopback' } });
    plain = await createTestApp({ env: { COOKIE_SECURE: 'false', TRUST_PROXY: 'loopback' } });
  });
  afterAll(async () => {
    await secure.close();
    await plain.close();
  });

  it('is sent on answers over HTTPS when cookies are Secure', async () => {
    for (const path of ['/api/session', '/', '/api/nope']) {
      const res = await secure.agent().get(path).set('X-Forwarded-Proto', 'https');
      expect(res.headers['strict-transport-security'], path).toBe('max-age=31536000');
    }
  });

  it('is not sent when cookies are not Secure, nor over plain HTTP where browsers ignore it', async () => {
    expect((await plain.agent().get('/api/session').set('X-Forwarded-Proto', 'https')).headers).not.toHaveProperty(
      'strict-transport-security',
    );
    expect((await secure.agent().get('/api/session')).headers).not.toHaveProperty('strict-transport-security');
  });
});
