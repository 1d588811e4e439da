import type { Server } from 'node:http';
import type { Logger } from 'pino';

/**
 * Stops taking new connections, lets in-flight requests finish, then runs `cleanup` (close the pool). Resolves
 * true when everything finished in time, false when the deadline forced the stop.
 */
export function drainAndClose(server: Server, log: Logger, cleanup: () => Promise<void>, deadlineMs = 25_000): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      log.error({ deadlineMs }, 'in-flight requests did not finish in time');
      server.closeAllConnections();
      void cleanup().finally(() => resolve(false));
    }, deadlineMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      void cleanup().then(
        () => resolve(true),
        (error: unknown) => {
          log.error({ err: error }, 'cleanup failed during shutdown');
          resolve(false);
        },
      );
    });
    // Keep-alive sockets with no request in flight would hold close() open.
    server.closeIdleConnections();
  });
}
