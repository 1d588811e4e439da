import type { Knex } from 'knex';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppContext } from '@context/app-context.js';
import { createDatabase } from '@db/knex.js';
import { closeJobDispatcher } from '@services/jobs/dispatch.js';
import { startSyncSchedule, type ScheduleHandle } from '@services/jobs/schedule.js';
import type { AppContext } from '@services/context.js';
import { testConfig } from '../helpers/app.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';
import { TEST_REDIS_URL, testQueuePrefix } from '../helpers/redis.js';
import { waitUntil } from '../helpers/wait.js';

/** Every second: a cron with a seconds field, which the settings refuse but the scheduler runs (tests only). */
const EVERY_SECOND = '* * * * * *';
const TICKS = 3;

interface Process {
  ctx: AppContext;
  db: Knex;
  lines: Array<Record<string, unknown>>;
  schedule?: ScheduleHandle;
}

/**
 * SYNC_SCHEDULE run by two processes at once (two `pacer worker`s on Redis, or two embedded servers): each tick
 * starts `sync all` exactly once between them. Each process here has its own database pool, Redis connections and
 * log; the ticks each one ran are read from its log.
 */
describe.each(['queue', 'embedded'] as const)(`SYNC_SCHEDULE across two processes (%s mode, ${testDialect})`, (mode) => {
  let database: TestDatabase;
  const processes: Process[] = [];

  afterEach(async () => {
    for (const one of processes.splice(0)) {
      await one.schedule?.close();
      await closeJobDispatcher(one.ctx, { leaveRunning: true });
      await one.db.destroy();
    }
    await database.destroy();
  });

  async function startProcess(env: Record<string, string>, syncSchedule: string | undefined): Promise<Process> {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const db = createDatabase({ url: database.url });
    const ctx = await createAppContext({ ...testConfig(env), syncSchedule }, { db, log });
    const one: Process = { ctx, db, lines };
    processes.push(one);
    one.schedule = await startSyncSchedule(ctx);
    return one;
  }

  it('starts sync all exactly once per tick', async () => {
    database = await createTestDatabase();
    const env: Record<string, string> = mode === 'queue' ? { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: testQueuePrefix() } : {};
    const [a, b] = await Promise.all([startProcess(env, EVERY_SECOND), startProcess(env, EVERY_SECOND)]);
    const ticks = () => [...a!.lines, ...b!.lines].filter((line) => line.msg === 'scheduled sync all').map((line) => String(line.tick));
    await waitUntil(() => new Set(ticks()).size >= TICKS, `${TICKS} ticks of the schedule`, 30_000);
    // Stop both, then count: a tick one process ran must not have been run by the other as well.
    for (const one of [a!, b!]) await one.schedule?.close();
    const ran = ticks();
    expect(ran.length, ran.join(', ')).toBe(new Set(ran).size);
    // The first tick queued an incremental sync of each kind, once; later ticks left the kinds to those runs.
    const scheduled = (await database.db('jobs').where({ type: 'sync', trigger: 'schedule' }).select('params')) as Array<{
      params: string | { kind: string };
    }>;
    const kinds = scheduled.map((row) => (typeof row.params === 'string' ? (JSON.parse(row.params) as { kind: string }) : row.params).kind);
    expect(new Set(kinds)).toEqual(new Set(['events', 'professionals', 'runclubs']));

    if (mode === 'queue') {
      // A worker started without SYNC_SCHEDULE takes the schedule out of Redis: no tick comes any more.
      const c = await startProcess(env, undefined);
      const before = c.lines.length;
      const { Queue } = await import('bullmq');
      const queue = new Queue('schedule', { connection: { url: TEST_REDIS_URL }, prefix: env.QUEUE_PREFIX });
      try {
        expect(await queue.getJobSchedulers()).toEqual([]);
      } finally {
        await queue.close();
      }
      expect(c.lines.length).toBe(before);
    }
  }, 60_000);
});
