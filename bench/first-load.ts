import { gzipSync } from 'node:zlib';

export interface FirstLoad {
  files: number;
  rawBytes: number;
  gzipBytes: number;
}

const SCRIPT_URLS = /<script[^>]*\bsrc="([^"]+)"|<link[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g;
/** Static imports of a minified ES module: `import"./x.js"`, `from"./x.js"` (dynamic `import(` is not first-load). */
const STATIC_IMPORTS = /(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g;

/**
 * The JavaScript a browser loads for a page before it can hydrate: the page's scripts and module preloads and,
 * transitively, their static imports; each file counted once, gzip at level 9 as the server's precompressed copy.
 */
export async function firstLoadOf(origin: string, path: string, cookie = ''): Promise<FirstLoad> {
  const html = await (await fetch(origin + path, { headers: cookie ? { cookie } : {} })).text();
  const pending = [...html.matchAll(SCRIPT_URLS)].map((match) => new URL(match[1] ?? match[2]!, origin + path).toString());
  const seen = new Set<string>();
  const load: FirstLoad = { files: 0, rawBytes: 0, gzipBytes: 0 };
  while (pending.length > 0) {
    const url = pending.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    load.files += 1;
    load.rawBytes += body.length;
    load.gzipBytes += gzipSync(body, { level: 9 }).length;
    for (const match of body.toString('utf8').matchAll(STATIC_IMPORTS)) pending.push(new URL(match[1]!, url).toString());
  }
  return load;
}
