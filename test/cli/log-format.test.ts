import { describe, expect, it } from 'vitest';
import { createLogger } from '@context/logger.js';

/** A pino destination that keeps what it is given. */
function captured() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => lines.push(line) } };
}

describe('log lines for a terminal and for collectors', () => {
  it('writes plain sentences on a terminal unless LOG_FORMAT=json, and JSON lines elsewhere unless LOG_FORMAT=pretty', () => {
    const log = (logFormat: 'json' | 'pretty' | undefined, terminal: boolean) => {
      const { lines, destination } = captured();
      createLogger({ logLevel: 'info', logFormat }, destination, terminal).error(
        { err: new Error('connect ECONNREFUSED 127.0.0.1:3306'), attempt: 2 },
        'database unreachable',
      );
      return lines.join('');
    };
    expect(log(undefined, true)).toBe('error: database unreachable (attempt=2): connect ECONNREFUSED 127.0.0.1:3306\n');
    expect(log('pretty', false)).toBe(log(undefined, true));
    for (const json of [log(undefined, false), log('json', true)]) {
      expect(JSON.parse(json)).toMatchObject({ level: 50, msg: 'database unreachable', attempt: 2, err: { message: expect.any(String) } });
    }
  });
});
