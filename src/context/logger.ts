import pino, { type Logger } from 'pino';
import type { Config } from '@config/env.js';

/** Never log credentials or cookies (security checklist item 22). */
const redact = {
  paths: [
    'req.headers.cookie',
    'req.headers.authorization',
    'res.headers["set-cookie"]',
    'password',
    '*.password',
    'passwordHash',
    '*.passwordHash',
  ],
  censor: '[redacted]',
};

const LEVEL_NAMES: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warning', 50: 'error', 60: 'fatal' };
/** Fields every line has, or that the plain line shows in its own way. */
const PLAIN_SKIPS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);

/** One JSON log line as a sentence a person reads on a terminal: "error: message (key=value …): the error's message". */
function plainLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = LEVEL_NAMES[entry.level as number] ?? String(entry.level);
  const fields = Object.entries(entry)
    .filter(([key, value]) => !PLAIN_SKIPS.has(key) && value !== null && typeof value !== 'object')
    .map(([key, value]) => `${key}=${String(value)}`);
  const err = entry.err as { message?: string } | undefined;
  return (
    `${level}: ${typeof entry.msg === 'string' ? entry.msg : ''}${fields.length ? ` (${fields.join(', ')})` : ''}` +
    `${err?.message ? `: ${err.message}` : ''}\n`
  );
}

/** Writes each line to `destination` as a plain sentence instead of JSON. */
function plainLines(destination: pino.DestinationStream): pino.DestinationStream {
  const flushable = destination as pino.DestinationStream & { flush?: (cb: (error?: Error) => void) => void };
  return {
    write: (line: string) => destination.write(plainLine(line)),
    ...(flushable.flush ? { flush: (cb: (error?: Error) => void) => flushable.flush!(cb) } : {}),
  } as pino.DestinationStream;
}

/**
 * JSON lines for log collectors; plain sentences when a person reads them: LOG_FORMAT=pretty, or LOG_FORMAT unset
 * and the destination is a terminal (`terminal`: default whether stdout is one, pino's default destination).
 */
export function createLogger(
  config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>,
  destination?: pino.DestinationStream,
  terminal = destination ? false : Boolean(process.stdout.isTTY),
): Logger {
  const plain = config.logFormat === 'pretty' || (config.logFormat === undefined && terminal);
  if (!plain) return pino({ level: config.logLevel, redact }, destination);
  return pino({ level: config.logLevel, redact }, plainLines(destination ?? pino.destination({ dest: 1, sync: false })));
}
