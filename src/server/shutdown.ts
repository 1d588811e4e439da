import type { Server } from 'node:http';
import type { Logger } from 'pino';

/**
 * Stops taking new connections, lets in-flight requests finish, then runs `cleanup` (close the pool). Resolves
 * true when everything finished in time, false when the deadline forced the stop.
 */
export function drainAndClose(server: Server, log: Logger, cleanup: () => Promise<void>, deadlineMs = 25_000): Promise<boolean> {
  return new Promise((resolve) => {
    let cleaning: Promise<boolean> | undefined;
    // Both the deadline and close() end in cleanup; whichever comes first runs it, once.
    const cleanupOnce = (finishedInTime: boolean) => {
      cleaning ??= cleanup().then(
        () => finishedInTime,
        (error: unknown) => {
          log.error({ err: error }, 'cleanup failed during shutdown');
          return false;
        },
      );
      void cleaning.then(resolve);
    };
    const timer = setTimeout(() => {
      log.error({ deadlineMs }, 'in-flight requests did not finish in time');
      server.closeAllConnections();
      cleanupOnce(false);
    }, deadlineMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      cleanupOnce(true);
    });
    // Keep-alive sockets with no request in flight would hold close() open.
    server.closeIdleConnections();
  });
}
