import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { renderMetrics, startMetrics } from '@services/metrics.js';

/** Both sides hashed first, so the comparison takes the same time whatever the length of what was sent. */
const digestOf = (text: string) => createHash('sha256').update(text).digest();

function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(text);
}

/**
 * Answers a scrape of the metrics, for the web server's /metrics and the worker's metrics port alike: 401 unless
 * the request carries `Authorization: Bearer <token>` (compared in constant time), else the metrics as text.
 */
export function metricsHandler(token: string, db: Knex, log: Logger) {
  const expected = digestOf(token);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const given = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const matches = timingSafeEqual(digestOf(given), expected);
    if (!matches) return sendText(res, 401, 'Unauthorized', { 'WWW-Authenticate': 'Bearer realm="metrics"' });
    try {
      const metrics = await renderMetrics(db);
      sendText(res, 200, metrics.text, { 'Content-Type': metrics.contentType });
    } catch (error) {
      // The queue depth needs the database: say it is out of reach rather than answering numbers that stopped.
      log.warn({ err: error }, 'metrics scrape failed');
      sendText(res, 503, 'Metrics unavailable');
    }
  };
}

/** The worker's metrics: /metrics on its own port (WORKER_METRICS_PORT), nothing else. */
export async function startMetricsServer(
  options: { token: string; port: number; host: string },
  db: Knex,
  log: Logger,
): Promise<{ port: number; close(): Promise<void> }> {
  startMetrics(db);
  const handle = metricsHandler(options.token, db, log);
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return sendText(res, 404, 'Not found');
    handle(req, res).catch((error: unknown) => {
      log.warn({ err: error }, 'metrics answer failed');
      res.destroy();
    });
  });
  // A scraper keeps its connection open between scrapes; a stopping worker must not wait for it.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  log.info({ port }, 'worker metrics listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
