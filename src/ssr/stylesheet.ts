import { createHash } from 'node:crypto';
import type { Response } from 'express';
import type { AssetManifest } from './assets.js';
import { escapeAttr } from './html-attribute.js';

/** Remembers, in this browser, which build's stylesheet it has been given (its value is that build's version). */
export const STYLESHEET_COOKIE = 'css';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** A short name for a build's stylesheets: their hashed file names change with their content. */
export function stylesheetVersion(hrefs: readonly string[]): string {
  return createHash('sha256').update(hrefs.join('\n')).digest('base64url').slice(0, 12);
}

const versionCookie = new RegExp(`(?:^|;\\s*)${STYLESHEET_COOKIE}=([^;]+)`);

/**
 * The page's stylesheet tags. A browser new to this build gets the stylesheet inline, so its first paint waits for
 * no second connection, plus a low-priority prefetch of the (immutable, hashed) file and a cookie saying it has it;
 * a returning browser gets a link to the file it has cached, and the page is that much smaller to render and send.
 */
export function stylesheetTags(assets: AssetManifest, cookieHeader: string | undefined, res: Response): string {
  const links = () => assets.css.map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}">`).join('');
  if (assets.inlineCss === undefined || assets.cssVersion === undefined) return links();
  if (versionCookie.exec(cookieHeader ?? '')?.[1] === assets.cssVersion) return links();
  res.append('Set-Cookie', `${STYLESHEET_COOKIE}=${assets.cssVersion}; Path=/; Max-Age=${ONE_YEAR_SECONDS}; SameSite=Lax; HttpOnly`);
  const prefetches = assets.css.map((href) => `<link rel="prefetch" href="${escapeAttr(href)}" as="style">`).join('');
  return `<style>${assets.inlineCss}</style>${prefetches}`;
}
