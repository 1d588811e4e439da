import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { get, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@server/app.js';
import { preferredEncoding } from '@server/compression.js';
import { createTestApp, TEST_PASSWORD, type TestApp } from '@test/helpers/app.js';

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One GET through node:http, which (unlike supertest and fetch) hands the body over exactly as it was sent. */
async function rawGet(app: Express, url: string, headers: Record<string, string>): Promise<RawAnswer> {
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<RawAnswer>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: url, headers: { host: '127.0.0.1', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
  } finally {
    server.close();
  }
}

describe('compressed answers', () => {
  let t: TestApp;
  let assetsDir: string;
  const script = Buffer.from(`export const greeting = ${JSON.stringify('hello '.repeat(500))};\n`);

  beforeAll(async () => {
    t = await createTestApp();
    assetsDir = mkdtempSync(path.join(tmpdir(), 'pacer-assets-'));
    mkdirSync(path.join(assetsDir, 'chunks'));
    for (const file of ['entry-ABC.js', 'chunks/page-DEF.js']) {
      writeFileSync(path.join(assetsDir, file), script);
      writeFileSync(path.join(assetsDir, `${file}.br`), brotliCompressSync(script));
      writeFileSync(path.join(assetsDir, `${file}.gz`), gzipSync(script));
    }
    writeFileSync(path.join(assetsDir, 'plain.css'), 'body { color: red }');
  });
  afterAll(async () => {
    await t.close();
    rmSync(assetsDir, { recursive: true, force: true });
  });

  const asset = (url: string, acceptEncoding: string) =>
    rawGet(createApp(t.ctx, { assetsDir }), url, { 'accept-encoding': acceptEncoding });

  it('answers scripts with their build-time brotli copy when the browser takes brotli, immutable', async () => {
    for (const url of ['/assets/entry-ABC.js', '/assets/chunks/page-DEF.js']) {
      const res = await asset(url, 'gzip, deflate, br, zstd');
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(brotliDecompressSync(res.body).equals(script)).toBe(true);
    }
  });

  it('falls back to the gzip copy, then to the file itself', async () => {
    const gzip = await asset('/assets/entry-ABC.js', 'gzip, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(script)).toBe(true);

    const plain = await asset('/assets/entry-ABC.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(script)).toBe(true);
    expect(plain.headers.vary).toBe('Accept-Encoding');

    // A file built without copies is served as it is.
    const css = await asset('/assets/plain.css', 'br');
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.body.toString()).toBe('body { color: red }');
  });

  it('compresses pages and JSON for clients that accept it, and leaves them alone for the rest', async () => {
    const { agent } = await t.signedInAgent();
    for (let i = 0; i < 12; i++) expect((await agent.post('/api/brands').send({ brandName: `Compressed Brand ${i}` })).status).toBe(201);
    const login = await t.agent().post('/api/login').send({ email: 'staff1@example.org', password: TEST_PASSWORD });
    const cookie = (login.headers['set-cookie'] as unknown as string[]).map((header) => header.split(';')[0]).join('; ');
    const page = (url: string, acceptEncoding: string) => rawGet(t.app, url, { cookie, 'accept-encoding': acceptEncoding });

    for (const url of ['/api/brands', '/brands']) {
      const plain = await page(url, 'identity');
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toContain('Accept-Encoding');
      expect(plain.body.length).toBeGreaterThan(1400);

      const br = await page(url, 'gzip, deflate, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(Number(br.headers['content-length'])).toBe(br.body.length);
      expect(br.body.length).toBeLessThan(plain.body.length / 2);
      const text = brotliDecompressSync(br.body).toString();
      // Same answer once decoded (the request ids inside a page differ per request, so compare the data).
      expect(text).toContain('Compressed Brand 11');
      expect(br.headers['content-type']).toBe(plain.headers['content-type']);

      const gzip = await page(url, 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).toString()).toContain('Compressed Brand 11');
    }
  });

  it('leaves small answers uncompressed', async () => {
    const res = await rawGet(t.app, '/api/session', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString())).toMatchObject({ user: null });
  });

  it('reads Accept-Encoding as browsers and proxies write it', () => {
    expect(preferredEncoding(undefined)).toBeNull();
    expect(preferredEncoding('')).toBeNull();
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('GZIP')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.8')).toBe('gzip');
    expect(preferredEncoding('br;q=0.0')).toBeNull();
    expect(preferredEncoding('*')).toBe('gzip');
  });
});
