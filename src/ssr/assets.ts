import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AssetManifest } from '@server/types.js';

/** esbuild writes the manifest (content-hashed names); without a build the page still renders, unhydrated. */
export function readAssetManifest(publicDir = 'public'): AssetManifest {
  const file = path.join(publicDir, 'assets', 'manifest.json');
  if (!existsSync(file)) return { entry: '/assets/entry.client.js', css: [], preload: [], routes: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as AssetManifest;
}
