import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeJobDispatcher } from '@services/jobs/dispatch.js';
import { verifyBackup } from '@services/backup/restore.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { waitUntil } from '../helpers/wait.js';

type Agent = Awaited<ReturnType<TestApp['signedInAgent']>>['agent'];

/**
 * The scheduled backup and "Back up now" run `pacer db backup` in a child process at BACKUP_NICE, so the archive's
 * encoding and gzip take only the CPU the server leaves; a cancel kills the child and leaves nothing behind.
 */
describe('backup job in a child process', () => {
  let app: TestApp;
  let dir: string;
  let agent: Agent;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-backup-child-'));
    app = await createTestApp({ env: { BACKUP_DIR: dir, BACKUP_NICE: '7' } });
    ({ agent } = await app.signedInAgent('admin-backup-child@example.org', 'admin'));
  });
  afterAll(async () => {
    await closeJobDispatcher(app.ctx);
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const jobOf = async (id: number) =>
    (await agent.get(`/api/jobs/${id}`)).body as { state: string; result: Record<string, unknown> | null };
  /** What the job logged when its child started: the child's pid and niceness. */
  const childOf = (id: number) =>
    app.logLines
      .map((line) => JSON.parse(line) as { jobId?: number; msg: string; pid?: number; nice?: number })
      .find((line) => line.jobId === id && line.msg === 'backup running in a child process');

  it('backs up now in a child process at BACKUP_NICE, writing an archive that verifies', async () => {
    const started = await agent.post('/api/backups');
    expect(started.status).toBe(202);
    const id = (started.body as { id: number }).id;
    await waitUntil(async () => ['succeeded', 'failed'].includes((await jobOf(id)).state), 'the backup job to finish', 60_000);
    const job = await jobOf(id);
    expect(job).toMatchObject({ state: 'succeeded', result: { dbKind: app.database.dialect === 'mysql' ? 'mysql' : 'sqlite' } });
    expect(job.result).not.toHaveProperty('file');

    const child = childOf(id);
    expect(child?.pid).toBeTypeOf('number');
    expect(child?.pid).not.toBe(process.pid);
    // Never less nice than this process (a child cannot be made less nice without privileges).
    expect(child?.nice).toBe(Math.max(7, os.getPriority(0)));

    const archives = readdirSync(dir);
    expect(archives).toEqual([job.result!.name]);
    const report = await verifyBackup(path.join(dir, archives[0]!));
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.manifest?.tables.users).toBeGreaterThanOrEqual(1);
    rmSync(path.join(dir, archives[0]!));
  }, 90_000);

  it('kills the child when the job is cancelled, leaving no archive and no temporary file', async () => {
    // Enough rows that the backup is still reading them when the cancel arrives.
    await app.ctx.db.raw(
      'INSERT INTO sign_in_events (occurredAt, email, kind, succeeded, ip, userAgent) ' +
        'WITH RECURSIVE d(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < 99) ' +
        "SELECT '2026-11-21 09:00:00', 'someone@example.org', 'password', 1, '127.0.0.1', 'A browser of some length / 1.0' " +
        'FROM d a, d b, d c WHERE c.i < 30',
    );
    const id = ((await agent.post('/api/backups')).body as { id: number }).id;
    await waitUntil(() => childOf(id) !== undefined, 'the backup child to start', 60_000);
    expect((await agent.post(`/api/jobs/${id}/cancel`)).status).toBeLessThan(300);
    await waitUntil(async () => ['succeeded', 'failed', 'cancelled'].includes((await jobOf(id)).state), 'the backup job to end', 60_000);
    expect((await jobOf(id)).state).toBe('cancelled');
    expect(() => process.kill(childOf(id)!.pid!, 0)).toThrow();
    // No archive, no .partial, no work folder.
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);
});

describe('a backup job that fails', () => {
  let app: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-backup-fails-'));
    // A file where the backup folder should be: the child cannot make its folder, and says so quoting the path.
    writeFileSync(path.join(dir, 'not-a-folder'), '');
    app = await createTestApp({ env: { BACKUP_DIR: path.join(dir, 'not-a-folder', 'backups') } });
  });
  afterAll(async () => {
    await closeJobDispatcher(app.ctx);
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("says why without naming the server's folders (staff read the jobs list)", async () => {
    const { agent } = await app.signedInAgent('admin-backup-fails@example.org', 'admin');
    const id = ((await agent.post('/api/backups')).body as { id: number }).id;
    const jobOf = async () => (await agent.get(`/api/jobs/${id}`)).body as { state: string; error: { message: string } | null };
    await waitUntil(async () => ['succeeded', 'failed'].includes((await jobOf()).state), 'the backup job to end', 60_000);
    const job = await jobOf();
    expect(job.state).toBe('failed');
    expect(job.error?.message).toMatch(/^The backup failed: ENOTDIR/);
    expect(job.error?.message).not.toContain(dir);
    expect(JSON.stringify((await agent.get('/api/jobs')).body)).not.toContain(dir);
  }, 90_000);
});
