import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrationStatus } from '@db/migrate.js';
import { runCli } from '@cli/program.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';
import { TEST_REDIS_URL, testQueuePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/wait.js';

/**
 * Starts `src/server/main.ts` on the database with MIGRATE_ON_START as given; resolves once it listens (then stops
 * it) or exits, with what it wrote.
 */
async function startServer(databaseUrl: string, uploadDir: string, migrateOnStart: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      SESSION_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      BCRYPT_COST: '4',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl,
      UPLOAD_DIR: uploadDir,
      HOST: '127.0.0.1',
      PORT: '0',
      MIGRATE_ON_START: migrateOnStart,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = () => stdout.includes('Pacer CRM listening');
  await waitUntil(() => listening() || child.exitCode !== null, 'the server to listen or exit', 60_000);
  const listened = listening();
  if (listened) child.kill('SIGTERM');
  return { listened, code: await exited, stdout, stderr };
}

describe(`MIGRATE_ON_START (${testDialect})`, () => {
  let database: TestDatabase;
  let uploadDir: string;

  beforeEach(async () => {
    database = await createTestDatabase({ migrate: false });
    uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-migrate-on-start-'));
  });
  afterEach(async () => {
    await database.destroy();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('true (the default): the server brings a fresh database up to date as it starts', async () => {
    const run = await startServer(database.url, uploadDir, '');
    expect(run.listened, run.stdout + run.stderr).toBe(true);
    expect((await migrationStatus(database.db)).pending).toEqual([]);
    expect(await database.db.schema.hasTable('users')).toBe(true);
  }, 120_000);

  it('false: the server refuses a database with pending migrations, saying what to run, and changes nothing', async () => {
    const refused = await startServer(database.url, uploadDir, 'false');
    expect(refused.listened).toBe(false);
    expect(refused.code).toBe(1);
    const { pending } = await migrationStatus(database.db);
    expect(pending.length).toBeGreaterThan(0);
    expect(refused.stderr.trim()).toBe(
      `The database schema is not up to date: ${pending.length} migrations pending (${pending.slice(0, 3).join(', ')}, …). ` +
        'Run `pacer db migrate` (the release step), or start the web server with MIGRATE_ON_START=true.',
    );
    expect(await database.db.schema.hasTable('users')).toBe(false);

    // A worker never migrates, and refuses the same way.
    let err = '';
    const workerCode = await runCli(['worker'], {
      stdout: { write: () => true } as never,
      stderr: { write: (text: string) => ((err += text), true) } as never,
      stdin: process.stdin,
      env: {
        NODE_ENV: 'test',
        BCRYPT_COST: '4',
        SESSION_SECRET: 's'.repeat(40),
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: testQueuePrefix(),
      },
    });
    expect(workerCode).toBe(1);
    expect(err).toContain('The database schema is not up to date');

    // The release step, then the same server starts.
    expect(await runCli(['db', 'migrate'], quietIo(database.url))).toBe(0);
    const started = await startServer(database.url, uploadDir, 'false');
    expect(started.listened, started.stdout + started.stderr).toBe(true);
    // Two server starts, a worker start and every migration: past the default 30 s on MariaDB when the machine is busy.
  }, 120_000);
});

const quietIo = (databaseUrl: string) => ({
  stdout: { write: () => true } as never,
  stderr: { write: () => true } as never,
  stdin: process.stdin,
  env: { NODE_ENV: 'test', BCRYPT_COST: '4', SESSION_SECRET: 's'.repeat(40), LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl },
});
