import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { LoadedBundle } from '@context/code-cache.js';

export interface BundleLoad {
  codeCache: LoadedBundle['codeCache'];
  /** The CommonJS files loading the bundle pulled in. */
  loaded: string[];
  /** What the bundle's `answer()` returned, if it exports one. */
  answer?: unknown;
}

/** Loads a bundle as its launcher would, in a fresh node started with `nodeOptions` (test/fixtures/load-bundle.ts). */
export async function loadBundleInChild(bundleFile: string, nodeOptions: string[] = []): Promise<BundleLoad> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    ...nodeOptions,
    '--import',
    'tsx',
    'test/fixtures/load-bundle.ts',
    bundleFile,
  ]);
  return JSON.parse(stdout) as BundleLoad;
}
