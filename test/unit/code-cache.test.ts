import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheFileOf, writeCodeCache } from '@context/code-cache.js';
import { loadBundleInChild } from '@test/helpers/bundle-loading.js';

/** A CommonJS bundle in miniature: a file it requires beside it, its own path, an answer that names its build. */
const bundleSource = (build: string) =>
  [
    "const helper = require('./helper.cjs');",
    `exports.answer = () => helper.shout(${JSON.stringify(build)}) + ' from ' + require('node:path').basename(__filename);`,
  ].join('\n');

// Each load runs in a fresh process, as each start of the server does: within one process V8 reuses what it
// compiled before and never reads the cache.
describe('a bundle started with its code cache', () => {
  let dir: string;
  let bundle: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-code-cache-'));
    bundle = path.join(dir, 'bundle.cjs');
    writeFileSync(path.join(dir, 'helper.cjs'), 'exports.shout = (text) => text.toUpperCase();');
    writeFileSync(bundle, bundleSource('first build'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs as a CommonJS module, compiled from the cache once the build has made one', async () => {
    expect(await loadBundleInChild(bundle)).toMatchObject({ codeCache: 'missing', answer: 'FIRST BUILD from bundle.cjs' });
    writeCodeCache(bundle);
    expect(await loadBundleInChild(bundle)).toMatchObject({ codeCache: 'used', answer: 'FIRST BUILD from bundle.cjs' });
  }, 30_000);

  it('runs the bundle as it is now when the cache was made for other bytes of the same length', async () => {
    writeCodeCache(bundle);
    // V8 checks a cache against the source's length only: given this cache it would run the first build's code.
    writeFileSync(bundle, bundleSource('later build'));
    expect(await loadBundleInChild(bundle)).toMatchObject({ codeCache: 'other-bundle', answer: 'LATER BUILD from bundle.cjs' });
  }, 30_000);

  it('compiles without a cache V8 refuses, and still runs', async () => {
    writeCodeCache(bundle);
    const file = readFileSync(codeCacheFileOf(bundle));
    // The bundle's hash is kept; what follows it is no longer V8's.
    writeFileSync(codeCacheFileOf(bundle), Buffer.concat([file.subarray(0, 20), Buffer.alloc(file.length - 20, 7)]));
    expect(await loadBundleInChild(bundle)).toMatchObject({ codeCache: 'refused-by-v8', answer: 'FIRST BUILD from bundle.cjs' });
  }, 30_000);

  it('replaces an older cache whole and leaves no partial file behind', async () => {
    writeCodeCache(bundle);
    writeFileSync(bundle, bundleSource('later build'));
    writeCodeCache(bundle);
    expect(await loadBundleInChild(bundle)).toMatchObject({ codeCache: 'used', answer: 'LATER BUILD from bundle.cjs' });
    expect(readdirSync(dir).sort()).toEqual(['bundle.cjs', 'bundle.cjs.code-cache', 'helper.cjs']);
  }, 30_000);

  it('writes no cache for a bundle that fails to load', () => {
    writeCodeCache(bundle);
    writeFileSync(bundle, "require('./missing.cjs');");
    expect(() => writeCodeCache(bundle)).toThrow(/missing\.cjs/);
    expect(existsSync(codeCacheFileOf(bundle))).toBe(false);
  });
});
