import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A listening server on 127.0.0.1 for a fake. */
async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  port = 0,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { message: error instanceof Error ? error.message : String(error) });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const { port: actual } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${actual}` };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  contentType = 'application/json; charset=UTF-8',
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function basicCredentials(req: IncomingMessage): { user: string; password: string } | null {
  const header = req.headers.authorization ?? '';
  const match = /^Basic\s+(.+)$/i.exec(header);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const index = decoded.indexOf(':');
  return index === -1 ? null : { user: decoded.slice(0, index), password: decoded.slice(index + 1) };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Failures queued by a test: the next `times` requests answer `status` instead of their normal answer. */
export interface QueuedFailure {
  status: number;
  times: number;
  headers?: Record<string, string>;
  body?: unknown;
}

/**
 * What both fakes do around their own routes: listen on 127.0.0.1, remember every request, answer queued failures
 * first, and hold or slow their answers while a test looks.
 */
export abstract class FakeHttpService {
  url = '';
  server?: Server;
  /** Every request, as each fake words it, in order. */
  requests: string[] = [];
  failures: QueuedFailure[] = [];
  /** Added to every answer (to slow the service down for people trying the app against `npm run fakes`). */
  delayMs = 0;
  /** While set, answers wait for it: a test keeps work running until it has looked (see `holdAnswers`). */
  private held?: Promise<void>;

  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;

  async start(port = 0): Promise<this> {
    const { server, url } = await listen((req, res) => this.handle(req, res), port);
    this.server = server;
    this.url = url;
    return this;
  }

  async close(): Promise<void> {
    if (this.server) await close(this.server);
  }

  /**
   * Requests still arrive (and are counted in `requests`) but get no answer until the returned function is called;
   * every request held so far, and any arriving after, is then answered.
   */
  holdAnswers(): () => void {
    let release!: () => void;
    this.held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.held = undefined;
      release();
    };
  }

  /** Awaited by a request before its answer: the hold, then the delay. */
  protected async answerTurn(): Promise<void> {
    if (this.held) await this.held;
    if (this.delayMs) await wait(this.delayMs);
  }
}
