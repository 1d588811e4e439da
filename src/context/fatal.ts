import type { Logger } from 'pino';

/** How long the last log lines may take to reach their destination before the process exits anyway. */
const FLUSH_DEADLINE_MS = 2000;

/**
 * The last line of defence, never a substitute for handling an error where it happens: after an exception nobody
 * caught or a rejection nobody handled, the process is in a state nobody planned for. It is logged as fatal, with
 * what it was, and the process exits non-zero so its supervisor starts a clean one.
 */
export function exitOnFatalError(log: Logger): void {
  const die = (error: unknown, origin: 'uncaughtException' | 'unhandledRejection') => {
    log.fatal({ err: error, origin, uptimeSeconds: Math.round(process.uptime()) }, `${origin}: exiting with status 1`);
    process.exitCode = 1;
    // The default destination writes asynchronously: let the fatal line out first, but never wait for ever.
    setTimeout(() => process.exit(1), FLUSH_DEADLINE_MS);
    log.flush(() => process.exit(1));
  };
  process.on('uncaughtException', (error) => die(error, 'uncaughtException'));
  process.on('unhandledRejection', (reason) => die(reason, 'unhandledRejection'));
}
