import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { RECORD_TYPES } from '@shared/record-types.js';
import {
  isMalformed,
  modelOf,
  ownerOfParam,
  type AnyCase,
  type Auth,
  type Edit,
  type FuzzCase,
  type MalformedCase,
  type OriginChoice,
  type Piece,
  type RouteModel,
} from './model.js';
import { contentTypeOf, renderMultipart, showMultipart } from './multipart.js';
import { idFrom, renderJson, showJson, type IdOwner, type IdPools, type Json } from './values.js';
import type { WireRequest } from './wire.js';

// ---------------------------------------------------------------------------------------------------------
// Path and query pieces

/** Percent-encodes UTF-8 bytes except unreserved characters (a lone surrogate goes as U+FFFD, as encoders do). */
const encode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

function renderPiece(piece: Piece, pools: IdPools, idOwner: IdOwner): string {
  if ('existing' in piece) return String(idFrom(pools, idOwner, piece.existing));
  if ('raw' in piece) return piece.raw;
  if ('repeat' in piece) return encode(piece.repeat.repeat(piece.times));
  return encode(piece.text);
}

function showPiece(piece: Piece, idOwner: string): string {
  if ('existing' in piece) return `<id of ${idOwner} #${piece.existing}>`;
  if ('raw' in piece) return piece.raw;
  if ('repeat' in piece) return `<${JSON.stringify(piece.repeat)} x ${piece.times}>`;
  return `<text ${JSON.stringify(piece.text)}>`;
}

// ---------------------------------------------------------------------------------------------------------
// Rendering a case into bytes

export interface Session {
  /** The Cookie header value that signs in (pacer=…; pacer.sig=…). */
  cookie: string;
}

export interface BuildEnv {
  port: number;
  pools: IdPools;
  session: Session;
}

const FORGED_COOKIE = 'pacer=eyJ1aWQiOjEsInZlciI6MCwiaWF0IjoxLCJsYXN0IjoxfQ==; pacer.sig=forged';

function applyEdits(valid: Array<[string, Json]>, edits: Edit[]): Array<[string, Json]> {
  let entries = [...valid];
  for (const edit of edits) {
    if (edit.op === 'drop') entries = entries.filter(([key]) => key !== edit.key);
    else if (edit.op === 'add') entries.push([edit.key, edit.value]);
    else {
      const at = entries.findIndex(([key]) => key === edit.key);
      if (at === -1) entries.push([edit.key, edit.value]);
      else entries[at] = [edit.key, edit.value];
    }
  }
  return entries;
}

/** The entityType a body names (so an owner id refers to a row of that type). */
function ownerTypeOf(entries: Array<[string, Json]>): IdOwner {
  const type = entries.find(([key]) => key === 'entityType')?.[1];
  return type && 's' in type && (RECORD_TYPES as readonly string[]).includes(type.s) ? (type.s as IdOwner) : 'event';
}

function bodyBytes(c: FuzzCase, env: BuildEnv, apiModels: Map<string, RouteModel>): { bytes: Buffer; contentType: string | undefined } {
  const body = c.body;
  switch (body.kind) {
    case 'none':
      return { bytes: Buffer.alloc(0), contentType: undefined };
    case 'edited': {
      const model = modelOf(c, apiModels).body;
      const entries = applyEdits(model.kind === 'object' ? model.valid : [], body.edits);
      return {
        bytes: Buffer.from(renderJson({ o: entries }, { pools: env.pools, ownerType: ownerTypeOf(entries) })),
        contentType: 'application/json',
      };
    }
    case 'json': {
      const ownerType = 'o' in body.value ? ownerTypeOf(body.value.o) : 'event';
      return { bytes: Buffer.from(renderJson(body.value, { pools: env.pools, ownerType })), contentType: 'application/json' };
    }
    case 'text':
      return { bytes: Buffer.from(body.text, 'utf8'), contentType: 'application/json' };
    case 'bytes':
      return { bytes: Buffer.from(body.latin1, 'latin1'), contentType: 'application/json' };
    case 'multipart':
      return { bytes: renderMultipart(body.body, env.pools), contentType: contentTypeOf(body.body) };
    case 'form':
      return { bytes: Buffer.from(body.text), contentType: 'application/x-www-form-urlencoded' };
  }
}

function pathOf(c: FuzzCase, env: BuildEnv): string {
  const pattern = c.route.slice(c.route.indexOf(' ') + 1);
  const entityTypeParam = c.params.find((p) => p.name === 'entityType')?.piece;
  const entityOwner: IdOwner =
    entityTypeParam && 'raw' in entityTypeParam && (RECORD_TYPES as readonly string[]).includes(entityTypeParam.raw)
      ? (entityTypeParam.raw as IdOwner)
      : 'event';
  let path = pattern;
  for (const { name, piece } of c.params) {
    const idOwner = name === 'entityId' ? entityOwner : (ownerOfParam(pattern, name) ?? 'event');
    path = path.replace(`:${name}`, renderPiece(piece, env.pools, idOwner));
  }
  if (path.endsWith('*'))
    path = path.slice(0, -1) + (c.splat ?? [{ raw: 'x' }]).map((piece) => renderPiece(piece, env.pools, 'event')).join('/');
  switch (c.pathVariant) {
    case 'as-is':
      return path;
    case 'trailing-slash':
      return `${path}/`;
    case 'double-slash':
      return path.replace(/\//g, '//');
    case 'upper-case':
      return path.toUpperCase();
    case 'dot-segment':
      return path.replace(/\/([^/]+)$/, '/./x/../$1');
    case 'encoded-slash':
      return path.replace(/\/([^/]+)$/, '%2F$1');
    case 'matrix':
      return `${path};a=1`;
    case 'extra-segment':
      return `${path}/extra`;
    case 'fragment':
      return `${path}#frag`;
  }
}

function queryOf(c: FuzzCase, env: BuildEnv): string {
  if (!c.query.length) return '';
  return `?${c.query.map(({ key, value }) => `${renderPiece(key, env.pools, 'event')}=${renderPiece(value, env.pools, 'event')}`).join('&')}`;
}

function compress(bytes: Buffer, name: string): Buffer {
  const encoding = name.toLowerCase();
  if (encoding === 'gzip') return gzipSync(bytes);
  if (encoding === 'deflate') return deflateSync(bytes);
  if (encoding === 'br') return brotliCompressSync(bytes);
  return bytes;
}

function cookieFor(auth: Auth | boolean, env: BuildEnv, tz: string | undefined): string | undefined {
  const parts: string[] = [];
  if (auth === 'session' || auth === true) parts.push(env.session.cookie);
  if (auth === 'forged') parts.push(FORGED_COOKIE);
  if (tz !== undefined) parts.push(`tz=${encode(tz)}`);
  return parts.length ? parts.join('; ') : undefined;
}

export function buildRequest(c: AnyCase, env: BuildEnv, apiModels: Map<string, RouteModel>): WireRequest {
  if (isMalformed(c)) return buildMalformed(c, env);
  const host = `127.0.0.1:${env.port}`;
  const hostHeader = { normal: host, bare: '127.0.0.1', evil: 'evil.example', junk: 'a b' }[c.headers.host];
  const origin = `http://${hostHeader}`;
  const headers: Array<[string, string]> = [['Host', hostHeader]];
  const cookie = cookieFor(c.headers.auth, env, c.headers.tz);
  if (cookie) headers.push(['Cookie', cookie]);
  const originHeader: Record<OriginChoice, [string, string] | undefined> = {
    same: ['Origin', origin],
    referer: ['Referer', `${origin}/events?x=1`],
    none: undefined,
    foreign: ['Origin', 'http://evil.example'],
    null: ['Origin', 'null'],
    junk: ['Origin', '::::'],
    https: ['Origin', `https://${hostHeader}`],
  };
  const chosenOrigin = originHeader[c.headers.origin];
  if (chosenOrigin) headers.push(chosenOrigin);

  let { bytes, contentType } = bodyBytes(c, env, apiModels);
  if ('value' in c.headers.contentType) contentType = c.headers.contentType.value;
  if ('omit' in c.headers.contentType) contentType = undefined;
  if (contentType !== undefined && (bytes.length > 0 || c.body.kind !== 'none')) headers.push(['Content-Type', contentType]);
  if (c.headers.encoding && bytes.length) {
    if (c.headers.encoding.compress) bytes = compress(bytes, c.headers.encoding.name);
    headers.push(['Content-Encoding', c.headers.encoding.name]);
  }
  headers.push(...c.headers.extra);
  headers.push(['Connection', c.transport.connection]);

  const framing: WireRequest['framing'] =
    c.transport.declared !== undefined
      ? { kind: 'declared', length: c.transport.declared }
      : c.transport.framing === 'chunked'
        ? { kind: 'chunked', chunks: 3 }
        : c.transport.framing === 'length' || bytes.length
          ? { kind: 'length' }
          : { kind: 'none' };
  const request: WireRequest = { method: c.method, target: pathOf(c, env) + queryOf(c, env), headers, body: bytes, framing };
  if (c.transport.framing === 'none' && bytes.length && c.transport.declared === undefined) request.framing = { kind: 'none' };
  if (c.transport.cut && bytes.length)
    request.cut = {
      at: Math.floor((bytes.length * c.transport.cut.perMille) / 1000),
      end: c.transport.cut.end,
      pauseMs: c.transport.cut.pauseMs,
    };
  // A Content-Length above the bytes sent would leave the server waiting: end the stream, as a client that gave up.
  else if (c.transport.declared !== undefined) request.cut = { at: bytes.length, end: 'fin', pauseMs: 0 };
  return request;
}

function buildMalformed(c: MalformedCase, env: BuildEnv): WireRequest {
  const host = `Host: 127.0.0.1:${env.port}`;
  const cookie = c.auth ? `Cookie: ${env.session.cookie}\r\n` : '';
  const tail = `${cookie}Connection: close\r\n\r\n`;
  const heads: Record<string, string> = {
    'http-1.0': `GET ${c.path} HTTP/1.0\r\n${host}\r\n${tail}`,
    'http-2-line': `GET ${c.path} HTTP/2.0\r\n${host}\r\n${tail}`,
    'double-space': `GET  ${c.path} HTTP/1.1\r\n${host}\r\n${tail}`,
    'lower-method': `get ${c.path} HTTP/1.1\r\n${host}\r\n${tail}`,
    'header-no-colon': `GET ${c.path} HTTP/1.1\r\n${host}\r\nNoColonHere\r\n${tail}`,
    'space-before-colon': `GET ${c.path} HTTP/1.1\r\n${host}\r\nX-Thing : 1\r\n${tail}`,
    'obs-fold': `GET ${c.path} HTTP/1.1\r\n${host}\r\nX-Folded: a\r\n b\r\n${tail}`,
    'lf-only': `GET ${c.path} HTTP/1.1\n${host}\n${tail.replace(/\r\n/g, '\n')}`,
    'nul-in-header': `GET ${c.path} HTTP/1.1\r\n${host}\r\nX-Nul: a\u0000b\r\n${tail}`,
    'huge-header': `GET ${c.path} HTTP/1.1\r\n${host}\r\nX-Huge: ${'a'.repeat(20_000)}\r\n${tail}`,
    'many-headers': `GET ${c.path} HTTP/1.1\r\n${host}\r\n${Array.from({ length: 2100 }, (_, i) => `X-H${i}: 1\r\n`).join('')}${tail}`,
    'absolute-form': `GET http://127.0.0.1:${env.port}${c.path} HTTP/1.1\r\n${host}\r\n${tail}`,
    'absolute-form-evil': `POST http://evil.example${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n${tail}{}`,
    asterisk: `OPTIONS * HTTP/1.1\r\n${host}\r\n${tail}`,
    connect: `CONNECT 127.0.0.1:${env.port} HTTP/1.1\r\n${host}\r\n${tail}`,
    'cl-and-te': `POST ${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n${tail}2\r\n{}\r\n0\r\n\r\n`,
    'bad-chunk': `POST ${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${tail}zz\r\n{}\r\n0\r\n\r\n`,
    'no-host': `GET ${c.path} HTTP/1.1\r\n${tail}`,
    'two-hosts': `GET ${c.path} HTTP/1.1\r\n${host}\r\nHost: evil.example\r\n${tail}`,
    'raw-space-in-target': `GET ${c.path}/a b HTTP/1.1\r\n${host}\r\n${tail}`,
    'raw-utf8-target': `GET ${c.path}?q=é😀 HTTP/1.1\r\n${host}\r\n${tail}`,
    'two-content-lengths': `POST ${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n${tail}{}`,
    'te-identity': `POST ${c.path} HTTP/1.1\r\n${host}\r\nOrigin: http://127.0.0.1:${env.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: identity\r\nContent-Length: 2\r\n${tail}{}`,
    'unknown-method': `FROB ${c.path} HTTP/1.1\r\n${host}\r\n${tail}`,
  };
  const head = heads[c.malformed] ?? heads['http-1.0']!;
  return { method: 'GET', target: c.path, headers: [], body: Buffer.alloc(0), framing: { kind: 'none' }, rawHead: head };
}

// ---------------------------------------------------------------------------------------------------------
// Describing a case for a report

function showBody(c: FuzzCase, apiModels: Map<string, RouteModel>): string {
  const body = c.body;
  switch (body.kind) {
    case 'none':
      return '';
    case 'edited': {
      const model = modelOf(c, apiModels).body;
      return showJson({ o: applyEdits(model.kind === 'object' ? model.valid : [], body.edits) });
    }
    case 'json':
      return showJson(body.value);
    case 'text':
    case 'form':
      return JSON.stringify(body.text);
    case 'bytes':
      return `bytes ${Buffer.from(body.latin1, 'latin1').toString('hex')}`;
    case 'multipart':
      return showMultipart(body.body);
  }
}

/** A curl-like description: what was sent, with long values left symbolic. */
export function describeCase(c: AnyCase, apiModels: Map<string, RouteModel>): string {
  if (isMalformed(c)) return `raw HTTP (${c.malformed}) for ${c.route}${c.auth ? ' with the session cookie' : ''}`;
  const pattern = c.route.slice(c.route.indexOf(' ') + 1);
  let path = pattern;
  for (const { name, piece } of c.params) path = path.replace(`:${name}`, showPiece(piece, ownerOfParam(pattern, name) ?? 'owner'));
  if (c.splat) path = path.replace('*', c.splat.map((piece) => showPiece(piece, '')).join('/'));
  const query = c.query.length
    ? `?${c.query.map(({ key, value }) => `${showPiece(key, 'event')}=${showPiece(value, 'event')}`).join('&')}`
    : '';
  const lines = [
    `curl -X ${c.method} 'http://127.0.0.1:PORT${path}${query}'${c.pathVariant === 'as-is' ? '' : `  (path spelled: ${c.pathVariant})`}`,
  ];
  const h = c.headers;
  lines.push(
    `  auth: ${h.auth}; origin: ${h.origin}; host: ${h.host}${h.tz !== undefined ? `; tz cookie: ${JSON.stringify(h.tz)}` : ''}  (bent: ${c.perturbed.join(', ') || 'only the body'})`,
  );
  if (!('auto' in h.contentType)) lines.push(`  -H 'Content-Type: ${'value' in h.contentType ? h.contentType.value : '(none)'}'`);
  if (h.encoding)
    lines.push(`  -H 'Content-Encoding: ${h.encoding.name}' (${h.encoding.compress ? 'compressed' : 'not actually compressed'})`);
  for (const [name, value] of h.extra)
    lines.push(`  -H '${name}: ${value.length > 60 ? `${value.slice(0, 60)}…(${value.length})` : value}'`);
  const body = showBody(c, apiModels);
  if (body) lines.push(`  --data-binary ${body.length > 1500 ? `${body.slice(0, 1500)}…` : body}`);
  const t = c.transport;
  const notes = [
    t.framing !== 'length' ? `framing: ${t.framing}` : '',
    t.declared !== undefined ? `Content-Length: ${JSON.stringify(t.declared)}` : '',
    t.cut && c.body.kind !== 'none'
      ? `body cut after ${t.cut.perMille / 10}% then ${t.cut.end}${t.cut.pauseMs ? ` (after ${t.cut.pauseMs} ms)` : ''}`
      : '',
    t.connection !== 'close' ? `Connection: ${t.connection}` : '',
  ].filter(Boolean);
  if (notes.length) lines.push(`  [${notes.join('; ')}]`);
  return lines.join('\n');
}
