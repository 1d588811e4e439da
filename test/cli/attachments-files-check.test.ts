import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@cli/program.js';
import { fakeIO } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { insertFileRow, insertTrashedFile } from '../helpers/stored-files.js';

describe('pacer files check', () => {
  let database: TestDatabase;
  let uploadDir: string;
  let env: NodeJS.ProcessEnv;
  const hourAgo = new Date(Date.now() - 3_600_000);

  const storeBytes = (key: string, old = true) => {
    const file = path.join(uploadDir, key);
    writeFileSync(file, 'bytes');
    if (old) utimesSync(file, hourAgo, hourAgo);
  };

  const kept = `${randomUUID()}.png`;
  const orphan = `${randomUUID()}.jpg`;
  const recentOrphan = `${randomUUID()}.gif`;
  const missing = `${randomUUID()}.mp4`;
  const trashed = `${randomUUID()}.png`;
  let missingRowId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    uploadDir = mkdtempSync(path.join(tmpdir(), 'pacer-files-check-'));
    env = { NODE_ENV: 'test', DATABASE_URL: database.url, UPLOAD_DIR: uploadDir, SESSION_SECRET: 'x'.repeat(40), LOG_LEVEL: 'silent' };
    storeBytes(kept);
    await insertFileRow(database.db, kept, 5);
    storeBytes(orphan);
    storeBytes(recentOrphan, false);
    missingRowId = await insertFileRow(database.db, missing, 5);
    // Recently deleted keeps its files' bytes until the purge: never an orphan.
    storeBytes(trashed);
    await insertTrashedFile(database.db, trashed);
    mkdirSync(path.join(uploadDir, '.incoming'));
    const leftover = path.join(uploadDir, '.incoming', `${randomUUID()}.part`);
    writeFileSync(leftover, 'half');
    utimesSync(leftover, hourAgo, hourAgo);
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(uploadDir, { recursive: true, force: true });
  });

  it('reports bytes without a row and rows without bytes, and exits 1', async () => {
    const run = fakeIO(env);
    expect(await runCli(['files', 'check'], run.io)).toBe(1);
    expect(run.stdout()).toContain('Stored files without a row: 1');
    expect(run.stdout()).toContain(orphan);
    expect(run.stdout()).toContain(`Rows without stored bytes: 1\n  file ${missingRowId}: ${missing}`);
    expect(run.stdout()).toContain('Unfinished upload leftovers: 1');
    expect(run.stdout()).toContain('Skipped 1 recent file(s)');
    expect(run.stderr()).toContain('pacer files check --fix');
    // Reporting changes nothing.
    expect(existsSync(path.join(uploadDir, orphan))).toBe(true);
    expect(await database.db('files').where({ id: missingRowId }).first()).toBeDefined();
  });

  it('refuses a bad --grace-minutes with the usage exit code', async () => {
    const run = fakeIO(env);
    expect(await runCli(['files', 'check', '--grace-minutes', 'soon'], run.io)).toBe(2);
  });

  it('with --fix removes orphan bytes, rows without bytes and leftovers, keeps good pairs and recent files, then is clean', async () => {
    const run = fakeIO(env);
    expect(await runCli(['files', 'check', '--fix', '--json'], run.io)).toBe(0);
    const report = JSON.parse(run.stdout());
    expect(report.fixed).toEqual({ bytesRemoved: 1, rowsRemoved: 1, incomingRemoved: 1 });
    expect(existsSync(path.join(uploadDir, orphan))).toBe(false);
    expect(existsSync(path.join(uploadDir, kept))).toBe(true);
    expect(existsSync(path.join(uploadDir, trashed))).toBe(true);
    expect(existsSync(path.join(uploadDir, recentOrphan))).toBe(true);
    expect(await database.db('files').where({ id: missingRowId }).first()).toBeUndefined();
    expect(await database.db('files').where({ filePath: kept }).first()).toBeDefined();

    const again = fakeIO(env);
    expect(await runCli(['files', 'check'], again.io)).toBe(0);
    expect(again.stdout()).toContain('Stored files without a row: 0');
    // With no grace period the recent orphan is an orphan too.
    const strict = fakeIO(env);
    expect(await runCli(['files', 'check', '--fix', '--grace-minutes', '0'], strict.io)).toBe(0);
    expect(existsSync(path.join(uploadDir, recentOrphan))).toBe(false);
  });
});
