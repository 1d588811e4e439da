import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppContext } from '@context/app-context.js';
import { createDatabase } from '@db/knex.js';
import { closeJobDispatcher } from '@services/jobs/dispatch.js';
import { backupBeforeMigrating } from '@services/backup/backup.js';
import { migrationStatus, rollbackSteps } from '@db/migrate.js';
import { migrateToLatest } from '@services/schema.js';
import { startBackupSchedule } from '@services/jobs/schedule.js';
import { createTestApp, testConfig, type TestApp } from '../helpers/app.js';
import { waitUntil } from '../helpers/wait.js';

/** The Backups panel's API: admins only; "Back up now" is a job the jobs page shows; a download is streamed. */
describe('Backups panel API', () => {
  let app: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-backups-api-'));
    // BACKUP_NICE 0: the priority is backup-child.test.ts's subject; here a niced child on a loaded machine only waits.
    app = await createTestApp({ env: { BACKUP_DIR: dir, BACKUP_KEEP: '2', BACKUP_NICE: '0' } });
  });
  afterAll(async () => {
    await closeJobDispatcher(app.ctx);
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 403 to viewers and staff on every backup endpoint', async () => {
    for (const role of ['viewer', 'staff'] as const) {
      const { agent } = await app.signedInAgent(`${role}-backups@example.org`, role);
      expect((await agent.get('/api/backups')).status).toBe(403);
      expect((await agent.post('/api/backups')).status).toBe(403);
      expect((await agent.get('/api/backups/pacer-backup-20260101-000000.tar.gz/download')).status).toBe(403);
      // Nor through the generic jobs endpoint.
      expect((await agent.post('/api/jobs').send({ type: 'backup', params: {} })).status).toBe(role === 'viewer' ? 403 : 400);
    }
    expect((await app.agent().get('/api/backups')).status).toBe(401);
  });

  it('backs up now as a job, lists the archive, keeps BACKUP_KEEP and streams the download to admins', async () => {
    const { agent } = await app.signedInAgent('admin-backups@example.org', 'admin');
    expect(await agent.get('/api/backups').then((res) => res.body as unknown)).toEqual({ items: [], schedule: null, keep: 2 });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = await agent.post('/api/backups');
      expect(started.status).toBe(202);
      const id = (started.body as { id: number }).id;
      ids.push(id);
      await waitUntil(
        async () => ['succeeded', 'failed'].includes(((await agent.get(`/api/jobs/${id}`)).body as { state: string }).state),
        'the backup job to finish',
        90_000,
      );
      expect((await agent.get(`/api/jobs/${id}`)).body).toMatchObject({ type: 'backup', state: 'succeeded' });
    }
    // The jobs page lists them with their type.
    const jobs = (await agent.get('/api/jobs?type=backup')).body as { items: Array<{ id: number; result: Record<string, unknown> }> };
    expect(jobs.items.map((job) => job.id).sort()).toEqual(ids.sort());
    expect(jobs.items[0]!.result).not.toHaveProperty('file');

    const listing = (await agent.get('/api/backups')).body as { items: Array<{ name: string; bytes: number }> };
    expect(listing.items).toHaveLength(2);
    const newest = listing.items[0]!;
    const download = await agent
      .get(`/api/backups/${newest.name}/download`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${newest.name}"`);
    expect(Buffer.compare(download.body as Buffer, readFileSync(path.join(dir, newest.name)))).toBe(0);

    expect((await agent.get('/api/backups/..%2Fpacer.sqlite/download')).status).toBe(400);
    expect((await agent.get('/api/backups/pacer-backup-19990101-000000.tar.gz/download')).status).toBe(404);
    // Each backup starts a `pacer` child process (from the sources here, a few seconds each, far more under load).
  }, 300_000);
});

describe('BACKUP_SCHEDULE', () => {
  it('runs a backup job on each tick, in the single process', async () => {
    const app = await createTestApp();
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-backups-schedule-'));
    const db = createDatabase({ url: app.ctx.config.databaseUrl });
    const ctx = await createAppContext(
      { ...testConfig({ DATABASE_URL: app.ctx.config.databaseUrl, UPLOAD_DIR: app.ctx.config.uploadDir, BACKUP_DIR: dir }) },
      { db, log: pino({ level: 'silent' }) },
    );
    // Every second: a seconds field, which the settings refuse but the scheduler runs (tests only).
    const schedule = await startBackupSchedule({
      ...ctx,
      config: { ...ctx.config, backup: { ...ctx.config.backup, schedule: '* * * * * *' } },
    });
    try {
      await waitUntil(
        async () => (await db('jobs').where({ type: 'backup', trigger: 'schedule', state: 'succeeded' }).count({ n: '*' }).first())!.n != 0,
        'a scheduled backup to finish',
        30_000,
      );
    } finally {
      await schedule.close();
      await closeJobDispatcher(ctx);
      await db.destroy();
      await app.close();
    }
    const written = (await import('node:fs')).readdirSync(dir).filter((name) => name.endsWith('.tar.gz'));
    expect(written.length).toBeGreaterThanOrEqual(1);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('BACKUP_BEFORE_MIGRATE', () => {
  it('backs up before pending migrations are applied, and not when there are none', async () => {
    const app = await createTestApp();
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-backup-before-'));
    const ctx = { ...app.ctx, config: { ...app.ctx.config, backup: { ...app.ctx.config.backup, dir, beforeMigrate: true } } };
    try {
      expect(await backupBeforeMigrating(ctx)).toBeNull();
      await rollbackSteps(app.ctx.db, 1);
      const made = await backupBeforeMigrating(ctx);
      expect(made?.file.startsWith(dir)).toBe(true);
      expect(made?.latestMigration).not.toBe((await migrationStatus(app.ctx.db)).pending[0]);
      await migrateToLatest(app.ctx.db);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
