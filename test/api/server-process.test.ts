import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node --import tsx <args>` from the project folder with `env` on top of ours, and waits for it to exit. */
function runNode(args: string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the server process', () => {
  it('refuses to start with Secure cookies and no trusted TLS proxy, and says what to set', async () => {
    const run = await runNode(['src/server/main.ts'], {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      COOKIE_SECURE: '',
      TRUST_PROXY: '',
      // Never reached: the settings are refused before the database is opened.
      DATABASE_URL: 'mysql://nobody@127.0.0.1:1/none',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Invalid settings:');
    expect(run.stderr).toContain('TRUST_PROXY: required while COOKIE_SECURE is on');
    expect(run.stderr).toContain('COOKIE_SECURE=false');
  });

  it('refuses to start on S3 storage without a bucket, in one line naming the setting', async () => {
    const run = await runNode(['src/server/main.ts'], {
      STORAGE: 's3',
      S3_BUCKET: '',
      DATABASE_URL: 'mysql://nobody@127.0.0.1:1/none',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Invalid settings:\n  - S3_BUCKET: required when STORAGE=s3 (the bucket uploaded files are kept in)\n');
  });

  it('logs an uncaught exception or an unhandled rejection as fatal JSON and exits non-zero', async () => {
    const crash = (failure: string) =>
      runNode(
        [
          '--input-type=module',
          '-e',
          [
            "import { exitOnFatalError } from './src/context/fatal.ts';",
            "import { createLogger } from './src/context/logger.ts';",
            "exitOnFatalError(createLogger({ logLevel: 'info' }));",
            // Something keeps the process busy, as a listening server would: only the handler ends it.
            'setInterval(() => undefined, 1000);',
            failure,
          ].join('\n'),
        ],
        {},
      );

    const thrown = await crash("setTimeout(() => { throw new Error('boom in a timer'); }, 10);");
    expect(thrown.code).toBe(1);
    expect(jsonLines(thrown.stdout)).toEqual([
      expect.objectContaining({
        level: 60,
        origin: 'uncaughtException',
        err: expect.objectContaining({ type: 'Error', message: 'boom in a timer', stack: expect.stringContaining('boom in a timer') }),
        msg: 'uncaughtException: exiting with status 1',
        pid: expect.any(Number),
        uptimeSeconds: expect.any(Number),
      }),
    ]);

    const rejected = await crash("void Promise.reject(new Error('nobody awaited me'));");
    expect(rejected.code).toBe(1);
    expect(jsonLines(rejected.stdout)).toEqual([
      expect.objectContaining({ level: 60, origin: 'unhandledRejection', err: expect.objectContaining({ message: 'nobody awaited me' }) }),
    ]);
  });
});
