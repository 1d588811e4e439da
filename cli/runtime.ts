import { ConfigError, loadConfig } from '@config/env.js';
import { createAppContext } from '@context/app-context.js';
import { createLogger } from '@context/logger.js';
import { migrationStatus } from '@db/migrate.js';
import type { AppContext } from '@services/context.js';
import { AppError } from '@services/errors.js';
import { closeStorage } from '@services/files/storage.js';
import pino from 'pino';
import { hasPrintedJson, printableLines, printJson, type JsonFailure } from './output.js';

/** Exit codes shared by every command (docs/cli.md). */
export const EXIT = { ok: 0, failure: 1, usage: 2, partial: 3 } as const;

export class CliExit extends Error {
  constructor(
    public readonly code: number,
    message: string,
    /** The `error.code` of --json output; by default from the exit code. */
    public readonly reason?: string,
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
 * always closes the database (and the file store's connections). Logs go to stderr so stdout stays clean for results
 * and --json: plain sentences on a terminal, JSON lines otherwise (LOG_FORMAT decides when set).
 *
 * Unless `schema: 'any'` (the db commands), a database with pending migrations is refused before the command
 * touches it, with one line saying what to do, instead of a "no such table" from the middle of the work.
 */
export async function withContext<T>(
  io: CliIO,
  work: (ctx: AppContext) => Promise<T>,
  options: { schema?: 'current' | 'any' } = {},
): Promise<T> {
  const config = loadConfig(io.env, { sessions: false });
  const log = createLogger(
    { logLevel: io.env.LOG_LEVEL ? config.logLevel : 'warn', logFormat: config.logFormat },
    pino.destination({ dest: 2, sync: true }),
    Boolean(io.stderr.isTTY),
  );
  const ctx = await createAppContext(config, { log });
  try {
    if (options.schema !== 'any') {
      const { pending } = await migrationStatus(ctx.db);
      if (pending.length) {
        throw new CliExit(
          EXIT.failure,
          `The database is not up to date (${pending.length} migration(s) pending): run \`pacer db migrate\` first; \`pacer db status\` lists them.`,
          'not_migrated',
        );
      }
    }
    return await work(ctx);
  } finally {
    await closeStorage(config);
    await ctx.db.destroy();
  }
}

/** What went wrong, for a terminal (lines) and for --json (the one error shape), with the exit code. */
function describeFailure(error: unknown): { exit: number; lines: string; failure: JsonFailure } {
  if (error instanceof CliExit) {
    const reason = error.reason ?? (error.code === EXIT.usage ? 'usage' : error.code === EXIT.partial ? 'partial' : 'failed');
    return { exit: error.code, lines: error.message, failure: { code: reason, message: error.message } };
  }
  if (error instanceof ConfigError) {
    return {
      exit: EXIT.usage,
      lines: error.message,
      failure: { code: 'invalid_settings', message: error.message, details: error.problems },
    };
  }
  if (error instanceof AppError) {
    const issues = (error.issues ?? []).map((issue) => `  - ${issue.path ? `${issue.path}: ` : ''}${issue.message}`);
    return {
      exit: error.status === 400 ? EXIT.usage : EXIT.failure,
      lines: [`Error: ${error.message}`, ...issues].join('\n'),
      failure: { code: error.code, message: error.message, ...(error.issues ? { details: error.issues } : {}) },
    };
  }
  // Database errors quote their whole statement; the first line is the useful part.
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  return { exit: EXIT.failure, lines: `Error: ${message}`, failure: { code: 'failed', message } };
}

/**
 * Maps any failure to a message on stderr and an exit code; for a --json command also to its one JSON document on
 * stdout, `{ "error": { "code", "message", "details"? } }`, unless it printed its document (a report) already.
 */
export function reportFailure(error: unknown, io: CliIO, json: boolean): number {
  const { exit, lines, failure } = describeFailure(error);
  if (lines) io.stderr.write(`${printableLines(lines)}\n`);
  if (json && !hasPrintedJson(io)) printJson(io, { error: failure });
  return exit;
}
