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

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  return pino({ level: config.logLevel, redact }, destination);
}
