import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { stylesheetVersion } from './stylesheet.js';

/** The build's files a page links and preloads (esbuild's manifest), read by readAssetManifest. */
export interface AssetManifest {
  /** The app's entry and the chunks it imports. */
  entry: string;
  css: string[];
  preload: string[];
  /** The auth pages' entry (sign-in, first-run set-up, set-password) and the chunks it imports. */
  auth: { entry: string; preload: string[] };
  /** Per route id: the route's page module and the chunks it imports beyond the entry's (preloaded with it). */
  routes?: Record<string, string[]>;
  /** The stylesheets' text, placed in a browser's first page instead of links to `css` (read from the build at start). */
  inlineCss?: string;
  /** Names this build's stylesheets in the cookie that says a browser has them (src/ssr/stylesheet.ts). */
  cssVersion?: string;
}

/**
 * esbuild writes the manifest (content-hashed names); without a build the page still renders, unhydrated. The
 * stylesheet's text is read once here: a browser's first page carries it inline, so the first paint waits for no
 * second request (on a phone, a new connection and a round trip: about 300 ms at 150 ms RTT), at ~4 KB of
 * compressed HTML; later pages link to the cached file (src/ssr/stylesheet.ts).
 */
export function readAssetManifest(publicDir = 'public'): AssetManifest {
  const file = path.join(publicDir, 'assets', 'manifest.json');
  if (!existsSync(file))
    return { entry: '/assets/entry.client.js', css: [], preload: [], auth: { entry: '/assets/entry.auth.js', preload: [] }, routes: {} };
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as AssetManifest;
  const styles = manifest.css.map((href) => readFileSync(path.join(publicDir, href), 'utf8')).join('\n');
  // Our own build's CSS never closes the element it sits in; refuse one that would, rather than break the page.
  if (/<\/style/i.test(styles)) throw new Error('The stylesheet contains "</style" and cannot be inlined');
  return { ...manifest, inlineCss: styles, cssVersion: stylesheetVersion(manifest.css) };
}
