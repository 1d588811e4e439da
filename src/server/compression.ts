import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

type Encoding = 'br' | 'gzip';

/** The file extension each encoding's precompressed copy carries (esbuild.config.mjs writes both). */
const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };
const ASSET_TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/**
 * The encoding to answer with: brotli when the client takes it, else gzip, else none. Browsers send plain lists
 * (`gzip, deflate, br, zstd`); a coding refused with q=0 is not taken.
 */
export function preferredEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param))) continue;
    accepted.add(name!.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

/** Every file under `dir`, as paths relative to it with forward slashes. */
function filesUnder(dir: string): Set<string> {
  if (!existsSync(dir)) return new Set();
  return new Set(readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((file) => file.split(path.sep).join('/')));
}

/**
 * The built bundle: content-hashed names, so immutable and cached a year. A script or style is answered with its
 * brotli or gzip copy made at build time when the client accepts one (never compressed per request). The bundle
 * does not change while the server runs (the watcher restarts it), so which copies exist is read once.
 */
export function bundleFiles(dir: string): RequestHandler {
  const files = filesUnder(dir);
  const serve = express.static(dir, {
    immutable: true,
    maxAge: '1y',
    index: false,
    fallthrough: false,
    setHeaders(res, file) {
      const encoding = res.locals.precompressed as Encoding | undefined;
      if (!encoding) return;
      res.setHeader('Content-Encoding', encoding);
      res.setHeader('Content-Type', ASSET_TYPES[path.extname(file.slice(0, -SUFFIX[encoding].length))]!);
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    const type = ASSET_TYPES[path.extname(req.path)];
    if (type) {
      res.setHeader('Vary', 'Accept-Encoding');
      const encoding = preferredEncoding(req.headers['accept-encoding']);
      const relative = decodeURIComponent(req.path).replace(/^\//, '');
      if (encoding && files.has(relative + SUFFIX[encoding])) {
        res.locals.precompressed = encoding;
        req.url = req.url.replace(/^[^?]*/, (pathname) => pathname + SUFFIX[encoding]);
      }
    }
    serve(req, res, next);
  };
}

/** Below this, a compressed answer saves less than a TCP packet: not worth the CPU. */
const MIN_COMPRESSED_BYTES = 1400;
const COMPRESSIBLE = /^(text\/html|application\/json)\b/;

/**
 * HTML and JSON answers compressed for clients that accept it. Brotli at quality 1 and gzip at level 1: on a 36 KB
 * list page brotli takes about a third of a millisecond and saves four fifths of the bytes, where higher levels
 * cost several times the CPU for a few percent more; the benchmark measures what it costs in requests/s.
 */
export function compressAnswers(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    res.vary('Accept-Encoding');
    if (!encoding) return next();
    const send = res.send.bind(res);
    res.send = (body?: unknown) => {
      if (typeof body === 'string' && !res.getHeader('Content-Type')) res.type('html');
      const type = String(res.getHeader('Content-Type') ?? '');
      const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : null;
      if (!bytes || bytes.length < MIN_COMPRESSED_BYTES || !COMPRESSIBLE.test(type) || res.getHeader('Content-Encoding')) {
        return send(body);
      }
      res.setHeader('Content-Encoding', encoding);
      return send(encoding === 'br' ? brotliCompressSync(bytes, brotliOptions(bytes.length)) : gzipSync(bytes, { level: 1 }));
    };
    next();
  };
}

const brotliOptions = (size: number) => ({ params: { [zlib.BROTLI_PARAM_QUALITY]: 1, [zlib.BROTLI_PARAM_SIZE_HINT]: size } });
