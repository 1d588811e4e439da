import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Script } from 'node:vm';

/**
 * Runs a CommonJS bundle with V8's code cache, the way Node 22's `module.enableCompileCache()` does for modules
 * (Node 20 has no such switch): reading and compiling the 4 MB server bundle was about a quarter of a cold start
 * (ADR 0087). The cache is made once, by the build, and is only ever read at start. The web server's and the CLI's
 * launchers (dist/server.js, dist/cli.js) start their bundles this way.
 *
 * V8 checks a cache against the source's length, not its content: given a cache of another build of the same
 * length it would run the old code. So the cache file starts with a hash of the bundle it was made from, and a
 * cache for other bytes is not used. V8 itself refuses a cache made by another V8 version or with other V8 flags;
 * the bundle then compiles as it would without one.
 */

const HASH_BYTES = 20;

/** Where the code cache of a bundle lives: next to it. */
export const codeCacheFileOf = (bundleFile: string) => `${bundleFile}.code-cache`;

const hashOf = (bytes: Buffer) => createHash('sha1').update(bytes).digest();

export interface LoadedBundle {
  exports: Record<string, unknown>;
  /** 'used', or why the bundle was compiled without it. */
  codeCache: 'used' | 'missing' | 'other-bundle' | 'refused-by-v8';
  script: Script;
  /** The hash of the bytes that were run, which a cache made from `script` must name. */
  bundleHash: Buffer;
}

function readCodeCache(bundleFile: string, bundleHash: Buffer): Buffer | 'missing' | 'other-bundle' {
  let file: Buffer;
  try {
    file = readFileSync(codeCacheFileOf(bundleFile));
  } catch {
    return 'missing';
  }
  return file.subarray(0, HASH_BYTES).equals(bundleHash) ? file.subarray(HASH_BYTES) : 'other-bundle';
}

/** Compiles and runs a CommonJS bundle as Node's own loader would, with its code cache when that fits. */
export function loadBundle(bundleFile: string): LoadedBundle {
  const bytes = readFileSync(bundleFile);
  const bundleHash = hashOf(bytes);
  const cache = readCodeCache(bundleFile, bundleHash);
  // The same wrapper Node puts around a CommonJS module, on the source's first line so positions stay as built.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${bytes.toString('utf8')}\n})`, {
    filename: bundleFile,
    cachedData: typeof cache === 'string' ? undefined : cache,
  });
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, path.dirname(bundleFile));
  const codeCache = typeof cache === 'string' ? cache : script.cachedDataRejected ? 'refused-by-v8' : 'used';
  return { exports: module.exports, codeCache, script, bundleHash };
}

/**
 * Makes a bundle's code cache: runs the bundle's top level (its modules' set-up, nothing that serves) so the cache
 * holds the functions compiled on the way, and writes it whole or not at all.
 */
export function writeCodeCache(bundleFile: string): void {
  const target = codeCacheFileOf(bundleFile);
  rmSync(target, { force: true });
  const { script, bundleHash } = loadBundle(bundleFile);
  const partial = `${target}.${process.pid}.tmp`;
  try {
    writeFileSync(partial, Buffer.concat([bundleHash, script.createCachedData()]));
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * What dist/server.js and dist/cli.js do: with `--write-code-cache` (the build) make the bundle's cache and exit;
 * otherwise run the bundle and call its `entry` export. Node maps stack traces through source maps
 * (--enable-source-maps, the watch mode) only in modules it loads itself, so then the bundle is simply required.
 */
export function launchBundle(bundleFile: string, entry: string): void {
  if (process.argv[2] === '--write-code-cache') {
    writeCodeCache(bundleFile);
    // The bundle's modules may have set timers up; the cache is written, so nothing is left to wait for.
    process.exit(0);
  }
  const bundle = (process.sourceMapsEnabled ? createRequire(bundleFile)(bundleFile) : loadBundle(bundleFile).exports) as Record<
    string,
    () => unknown
  >;
  void bundle[entry]!();
}
