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
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

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
});
