import { ConfigError, loadConfig } from '@config/env.js';
import { createAppContext } from '@context/app-context.js';
import { createLogger } from '@context/logger.js';
import type { AppContext } from '@services/context.js';
import { AppError } from '@services/errors.js';
import { closeStorage } from '@services/files/storage.js';
import pino from 'pino';

/** Exit codes shared by every command (architecture page). */
export const EXIT = { ok: 0, failure: 1, usage: 2, partial: 3 } as const;

export class CliExit extends Error {
  constructor(
    public readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** Where a command writes: results to stdout, logs and messages to stderr. Tests pass their own. */
export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export const processIO = (): CliIO => ({ stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });

/**
 * Runs a command body with a full service context (same config, database and services as the web server) and
 * always closes the database (and the file store's connections). Logs go to stderr so stdout stays clean for results and --json.
 */
export async function withContext<T>(io: CliIO, work: (ctx: AppContext) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  const log = createLogger({ logLevel: io.env.LOG_LEVEL ? config.logLevel : 'warn' }, pino.destination({ dest: 2, sync: true }));
  const ctx = await createAppContext(config, { log });
  try {
    return await work(ctx);
  } finally {
    await closeStorage(config);
    await ctx.db.destroy();
  }
}

/** Maps any failure to a message on stderr and an exit code. */
export function exitCodeFor(error: unknown, io: CliIO): number {
  if (error instanceof CliExit) {
    if (error.message) io.stderr.write(`${error.message}\n`);
    return error.code;
  }
  if (error instanceof ConfigError) {
    io.stderr.write(`${error.message}\n`);
    return EXIT.usage;
  }
  if (error instanceof AppError) {
    io.stderr.write(`Error: ${error.message}\n`);
    for (const issue of error.issues ?? []) io.stderr.write(`  - ${issue.path ? `${issue.path}: ` : ''}${issue.message}\n`);
    return error.status === 400 ? EXIT.usage : EXIT.failure;
  }
  io.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
  return EXIT.failure;
}
