import net from 'node:net';

/**
 * A minimal HTTP/1.1 client over a raw socket. fetch and supertest normalise what they send (they fix
 * Content-Length, refuse bad header bytes, never stop half-way through a body), so the fuzzer writes the bytes
 * itself: a malformed request is exactly what reaches the server.
 */

export interface WireRequest {
  method: string;
  /** The request-target exactly as sent: path and query, possibly with broken %-encoding. */
  target: string;
  /** Sent in order and as given, duplicates included; nothing is added apart from the framing header. */
  headers: Array<[string, string]>;
  body: Buffer;
  /** How the body is delimited; `declared` states a Content-Length other than the real size. */
  framing: { kind: 'length' } | { kind: 'declared'; length: string } | { kind: 'chunked'; chunks: number } | { kind: 'none' };
  /** Stop after this many bytes of the framed body, then half-close (fin) or reset, optionally after a pause. */
  cut?: { at: number; end: 'fin' | 'reset'; pauseMs: number };
  /** A whole request head written verbatim instead of method/target/headers (for broken request lines). */
  rawHead?: string;
}

export interface WireResponse {
  status: number;
  /** Lower-cased names; repeated headers keep every value. */
  headers: Map<string, string[]>;
  body: Buffer;
}

export type WireOutcome =
  | { kind: 'response'; response: WireResponse }
  /**
   * `reset`: the connection was reset rather than closed. A server that answers early (413, 403) and closes with
   * the rest of a large body unread makes the kernel reset the connection, which can lose the answer on its way.
   */
  | { kind: 'no-response'; detail: string; reset: boolean }
  | { kind: 'refused'; detail: string }
  | { kind: 'timeout' };

export const header = (response: WireResponse, name: string): string | undefined => response.headers.get(name.toLowerCase())?.[0];

function framedBody(request: WireRequest): Buffer {
  if (request.framing.kind !== 'chunked') return request.body;
  const parts: Buffer[] = [];
  const size = Math.max(1, Math.ceil(request.body.length / Math.max(1, request.framing.chunks)));
  for (let offset = 0; offset < request.body.length; offset += size) {
    const chunk = request.body.subarray(offset, offset + size);
    parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

function serialiseHead(request: WireRequest): string {
  if (request.rawHead !== undefined) return request.rawHead;
  const lines = [`${request.method} ${request.target} HTTP/1.1`];
  for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
  const { framing } = request;
  if (framing.kind === 'length') lines.push(`Content-Length: ${request.body.length}`);
  if (framing.kind === 'declared') lines.push(`Content-Length: ${framing.length}`);
  if (framing.kind === 'chunked') lines.push('Transfer-Encoding: chunked');
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** The whole request as bytes (head in UTF-8, so non-ASCII header text arrives as obs-text bytes). */
function serialise(request: WireRequest): { head: Buffer; body: Buffer } {
  return { head: Buffer.from(serialiseHead(request), 'utf8'), body: framedBody(request) };
}

/** Every complete response in `data` (after any 1xx); a response delimited by the close only once `closed`. */
function parseResponses(data: Buffer, method: string, closed: boolean): WireResponse[] {
  const responses: WireResponse[] = [];
  let offset = 0;
  while (offset < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) break;
    const headText = data.subarray(offset, headEnd).toString('latin1');
    const [statusLine = '', ...headerLines] = headText.split('\r\n');
    const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(statusLine)?.[1] ?? NaN);
    if (!Number.isFinite(status)) break;
    const headers = new Map<string, string[]>();
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
    }
    let cursor = headEnd + 4;
    if (status >= 100 && status < 200) {
      // 100 Continue and friends precede the real answer.
      offset = cursor;
      continue;
    }
    const length = headers.get('content-length')?.[0];
    const chunked = /chunked/i.test(headers.get('transfer-encoding')?.[0] ?? '');
    let body: Buffer;
    if (method === 'HEAD' || status === 204 || status === 304) {
      body = Buffer.alloc(0);
    } else if (chunked) {
      const parts: Buffer[] = [];
      let complete = false;
      while (cursor < data.length) {
        const lineEnd = data.indexOf('\r\n', cursor);
        if (lineEnd === -1) break;
        const size = parseInt(data.subarray(cursor, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) break;
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n\r\n', lineEnd);
          if (trailerEnd === -1 && data.indexOf('\r\n', lineEnd + 2) !== lineEnd + 2) break;
          cursor = trailerEnd === -1 ? lineEnd + 4 : trailerEnd + 4;
          complete = true;
          break;
        }
        if (lineEnd + 2 + size + 2 > data.length) break;
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        cursor = lineEnd + 2 + size + 2;
      }
      if (!complete) break;
      body = Buffer.concat(parts);
    } else if (length !== undefined) {
      const size = Number(length);
      if (cursor + size > data.length) break;
      body = data.subarray(cursor, cursor + size);
      cursor += size;
    } else {
      // Delimited by the connection closing.
      if (!closed) break;
      body = data.subarray(cursor);
      cursor = data.length;
    }
    responses.push({ status, headers, body });
    offset = cursor;
  }
  return responses;
}

export interface SendOptions {
  port: number;
  /** Gives up on an answer after this long (the request was sent whole, so silence is a hang). */
  timeoutMs: number;
  /** Source address, so sign-ins the harness needs are throttled apart from the fuzzed ones. */
  localAddress?: string;
}

/** Sends one request on a fresh connection and reads the first answer. Only ever connects to 127.0.0.1. */
export function send(request: WireRequest, options: SendOptions): Promise<WireOutcome> {
  const { head, body } = serialise(request);
  const closesAfter = request.headers.some(([name, value]) => name.toLowerCase() === 'connection' && /close/i.test(value));
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: options.port, localAddress: options.localAddress });
    const received: Buffer[] = [];
    let settled = false;
    let connected = false;
    let reset = false;
    const finish = (outcome: WireOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'timeout' }), options.timeoutMs);
    const tryParse = (closed: boolean) => {
      const [first] = parseResponses(Buffer.concat(received), request.method, closed);
      // With Connection: close the server ends the socket after answering; otherwise stop at the first answer.
      if (first && (!closesAfter || closed)) finish({ kind: 'response', response: first });
      else if (closed)
        finish({ kind: 'no-response', detail: received.length ? 'unparseable answer' : 'connection closed without an answer', reset });
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected) return finish({ kind: 'refused', detail: error.code ?? error.message });
      reset = error.code === 'ECONNRESET' || error.code === 'EPIPE';
      tryParse(true);
    });
    socket.on('connect', () => {
      connected = true;
      const cut = request.cut;
      if (!cut) {
        // In one write, as a client sends a small request: written apart, the body can arrive after a server that
        // answered from the head alone has closed (Connection: close), and the kernel's reset then cuts the answer.
        socket.write(Buffer.concat([head, body]));
        return;
      }
      socket.write(head);
      socket.write(body.subarray(0, Math.min(cut.at, body.length)), () => {
        const stop = () => {
          if (settled) return;
          if (cut.end === 'fin') socket.end();
          else socket.resetAndDestroy();
        };
        // The pause is part of the generated case: it lets the server start on the partial body before it ends.
        if (cut.pauseMs > 0) setTimeout(stop, cut.pauseMs);
        else stop();
      });
    });
  });
}
