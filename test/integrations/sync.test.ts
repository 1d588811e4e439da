import { hostname } from 'node:os';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { createDatabase } from '@db/knex.js';
import type { AppContext } from '@services/context.js';
import { JobCancelledError } from '@services/errors.js';
import { IntegrationError } from '@services/integrations/errors.js';
import { tryAcquireLock } from '@services/sync/lock.js';
import { latestRuns, runSync } from '@services/sync/service.js';
import { getHistory } from '@services/history/service.js';
import { describeEntry } from '@shared/history.js';
import { FakeWordPress, type FakePost } from '../fakes/wordpress.js';
import { FakeClock, testConfig, testServiceContext } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { waitUntil } from '../helpers/wait.js';

const cli = { userId: null, source: 'cli', role: 'admin' } as const;
const OLD = '2026-06-01T00:00:00';

function eventPosts(): FakePost[] {
  const posts: FakePost[] = Array.from({ length: 118 }, (_, i) => ({
    id: 1000 + i,
    title: `Race &#8211; number ${i + 1}`,
    modifiedGmt: OLD,
    meta: {
      event_start_date: '2027-01-10',
      location_state: i % 2 ? 'VIC' : 'new south wales',
      run_type: ['Half Marathon'],
      website_url: `race${i}.example`,
    },
  }));
  posts.push({
    id: 2001,
    title: 'Rock &#8217;n&#8217; Roll &#038; Run',
    modifiedGmt: OLD,
    meta: { location_state: 'Narnia', event_start_date: '31/02/2027' },
  });
  posts.push({ id: 2002, title: '', modifiedGmt: OLD, meta: [] as unknown as Record<string, unknown> });
  return posts;
}

describe(`WordPress sync (${process.env.TEST_DATABASE_URL ? 'MariaDB' : 'SQLite'})`, () => {
  let database: TestDatabase;
  let wp: FakeWordPress;
  let ctx: AppContext;
  let clock: FakeClock;

  beforeAll(async () => {
    database = await createTestDatabase();
    wp = await new FakeWordPress({
      posts: {
        events: eventPosts(),
        professionals: [
          { id: 1, title: 'Kneads &amp; Co', modifiedGmt: OLD, meta: { profession_type: 'Massage Therapist', location_state: 'qld' } },
          {
            id: 2,
            title: 'Foot Works',
            modifiedGmt: OLD,
            acf: { business_name: 'Foot Works Podiatry', profession_type: 'Podiatrist', instagram_url: 'instagram.com/footworks' },
          },
          { id: 3, title: 'Aura', modifiedGmt: OLD, meta: { profession_type: 'Reiki Master' } },
        ],
      },
    }).start();
    clock = new FakeClock();
    ctx = testServiceContext(database, { env: { ...wp.env, HTTP_TIMEOUT_MS: '2000' }, clock });
  });
  afterAll(async () => {
    await wp.close();
    await database.destroy();
  });
  afterEach(() => {
    wp.requests = [];
    clock.advance(3_600_000);
  });

  const event = async (wordpressEventId: number) => {
    const row = await database.db('events').where({ wordpressEventId }).first();
    return row ? decodeRow<Record<string, unknown>>(columnKinds.events, row) : undefined;
  };

  it('first run: reads every page, creates records, decodes entities and reports a bad item among good ones', async () => {
    const result = await runSync(ctx, 'events', { actor: cli });
    expect(result).toMatchObject({ success: true, created: 119, updated: 0, unchanged: 0, failed: 1, full: true });
    expect(wp.requests.filter((r) => r.startsWith('/wp-json/wp/v2/events'))).toHaveLength(2);
    expect(result.errors).toEqual([
      "Event 'Rock ’n’ Roll & Run' (WordPress id 2001): start date '31/02/2027' is not a date; left empty",
      "Event 'Rock ’n’ Roll & Run' (WordPress id 2001): state 'Narnia' is not one of NSW, VIC, QLD, WA, SA, TAS, ACT, NT, NZ; left empty",
      'Event with WordPress id 2002 has no name and no title; skipped',
    ]);
    expect(result.message).toBe('120 events read (full), 119 created, 0 updated, 0 unchanged, 3 problems');
    expect(await event(2001)).toMatchObject({
      eventName: 'Rock ’n’ Roll & Run',
      locationState: null,
      eventStartDate: null,
      wordpressLastSync: clock.now().toISOString(),
    });
    expect(await event(1000)).toMatchObject({
      eventName: 'Race – number 1',
      locationState: 'NSW',
      runType: ['half-marathon'],
      websiteUrl: 'https://race0.example',
      totalAdvertisingSpend: '0.00',
    });
    expect(await event(2002)).toBeUndefined();
    const [run] = await database.db('sync_runs').where({ kind: 'events' });
    expect(decodeRow(columnKinds.sync_runs, run)).toMatchObject({
      trigger: 'cli',
      full: true,
      success: true,
      created: 119,
      failed: 1,
      startedBy: null,
    });
  });

  it('runs in full again after a run that could not save an item, and creates the fixed item', async () => {
    wp.edit('events', 2002, { title: 'Untitled &#8220;Mystery&#8221; Run' }, '2026-11-21T09:30:00');
    const result = await runSync(ctx, 'events', { actor: cli });
    expect(result).toMatchObject({ full: true, created: 1, updated: 0, unchanged: 119, failed: 0 });
    expect(wp.requests.some((r) => r.includes('modified_after'))).toBe(false);
    expect((await event(2002))?.eventName).toBe('Untitled “Mystery” Run');
  });

  it('is incremental after a clean run and idempotent: a re-run creates and updates nothing', async () => {
    const before = await database.db('events').count({ n: '*' }).first();
    const result = await runSync(ctx, 'events', { actor: cli });
    expect(result).toMatchObject({ full: false, created: 0, updated: 0, failed: 0 });
    const modifiedAfter = new URL(
      wp.requests.find((r) => r.includes('modified_after'))!,
      wp.url,
    ).searchParams.get('modified_after');
    // The previous run started an hour ago; WordPress compares in site-local time, so 14 hours of overlap.
    expect(modifiedAfter).toBe(new Date(clock.now().getTime() - 3_600_000 - 14 * 3_600_000).toISOString());
    expect(await database.db('events').count({ n: '*' }).first()).toEqual(before);
  });

  it('takes WordPress values for synced fields only: CRM-only fields stay as they were', async () => {
    await database.db('events').where({ wordpressEventId: 1001 }).update({
      eventName: 'Renamed in the CRM',
      notes: 'Call the director',
      newsletterInclusionNotes: 'Feature in March',
      lastNewsletterInclusion: '2026-10-01',
      totalAdvertisingSpend: '1234.50',
    });
    const synced = clock.now();
    wp.edit('events', 1001, { title: 'Race &#8211; renamed in WordPress', meta: { location_state: 'Tasmania' } }, '2026-11-21T12:30:00');
    const result = await runSync(ctx, 'events', { actor: cli });
    expect(result).toMatchObject({ created: 0, updated: 1, full: false });
    expect(await event(1001)).toMatchObject({
      eventName: 'Race – renamed in WordPress',
      locationState: 'TAS',
      notes: 'Call the director',
      newsletterInclusionNotes: 'Feature in March',
      lastNewsletterInclusion: '2026-10-01',
      totalAdvertisingSpend: '1234.50',
      wordpressLastSync: synced.toISOString(),
      updatedAt: synced.toISOString(),
    });
    // One history entry for the one changed record, named after the sync run, with the old and new values.
    const id = Number((await event(1001))!.id);
    const history = await getHistory(ctx, 'event', id, null);
    expect(history.items[0]).toMatchObject({
      action: 'update',
      actor: { kind: 'sync', runId: String(result.runId) },
      changes: { eventName: { from: 'Renamed in the CRM', to: 'Race – renamed in WordPress' }, locationState: { from: 'VIC', to: 'TAS' } },
    });
    expect(describeEntry(history.items[0]!, 'event')).toEqual(['Sync changed Event name, Location state']);
    const fromThisRun = await database
      .db('history')
      .where({ runId: String(result.runId) })
      .count({ n: '*' })
      .first();
    expect(Number(fromThisRun?.n)).toBe(1);
    // The first run recorded one creation per created record, and nothing for records it left alone since.
    expect((await getHistory(ctx, 'event', id, null)).items.map((item) => item.action)).toEqual(['update', 'create']);
  });

  it('reports posts that are no longer published and keeps their records', async () => {
    wp.edit('events', 1002, { status: 'draft' }, '2026-11-21T13:30:00');
    const result = await runSync(ctx, 'events', { actor: cli });
    expect(result.unpublished).toEqual([
      "Event 'Race – number 3' (WordPress id 1002) is no longer published on the content website; kept in the CRM",
    ]);
    expect(result.message).toContain('1 no longer published (kept)');
    expect(await event(1002)).toBeDefined();
    const [run] = await database.db('sync_runs').orderBy('id', 'desc').limit(1);
    expect(decodeRow<{ notices: string[] }>(columnKinds.sync_runs, run).notices).toEqual(result.unpublished);
  });

  it('a dry run writes nothing and records no run', async () => {
    wp.edit('events', 1003, { title: 'Dry &#8211; changed' }, '2026-11-21T14:30:00');
    const runsBefore = await database.db('sync_runs').count({ n: '*' }).first();
    const result = await runSync(ctx, 'events', { actor: cli, dryRun: true });
    expect(result).toMatchObject({ dryRun: true, updated: 1, runId: null });
    expect((await event(1003))?.eventName).toBe('Race – number 4');
    expect(await database.db('sync_runs').count({ n: '*' }).first()).toEqual(runsBefore);
  });

  it('--full re-reads everything and still changes nothing that did not change', async () => {
    await runSync(ctx, 'events', { actor: cli });
    const result = await runSync(ctx, 'events', { actor: cli, full: true });
    expect(result).toMatchObject({ full: true, created: 0, updated: 0, unchanged: 119 });
  });

  it('normalises profession types, and saves types outside the list as other with the words kept: a warning', async () => {
    const result = await runSync(ctx, 'professionals', { actor: { userId: null, source: 'web', role: 'staff' } });
    expect(result).toMatchObject({ created: 3, failed: 0, errors: [] });
    expect(result.warnings).toEqual([
      "Professional 'Aura' (WordPress id 3): profession type 'Reiki Master' is not one of coach, physiotherapist, nutritionist, podiatrist, massage-therapist, trainer, other; saved as other (Reiki Master)",
    ]);
    expect(result.message).toBe('3 professionals read (full), 3 created, 0 updated, 0 unchanged, 1 warning');
    const rows = await database
      .db('professionals')
      .orderBy('wordpressProfessionalId')
      .select('businessName', 'professionType', 'professionTypeOther', 'locationState', 'instagramUrl');
    expect(rows).toEqual([
      {
        businessName: 'Kneads & Co',
        professionType: 'massage-therapist',
        professionTypeOther: null,
        locationState: 'QLD',
        instagramUrl: null,
      },
      {
        businessName: 'Foot Works Podiatry',
        professionType: 'podiatrist',
        professionTypeOther: null,
        locationState: null,
        instagramUrl: 'https://instagram.com/footworks',
      },
      { businessName: 'Aura', professionType: 'other', professionTypeOther: 'Reiki Master', locationState: null, instagramUrl: null },
    ]);
    // Warnings alone leave the run clean: it succeeded, and the next run is incremental.
    const runs = await latestRuns(ctx);
    expect(runs.professionals).toMatchObject({ status: 'succeeded', failed: 0, errors: [], warnings: result.warnings });
  });

  it('refuses to start while the same sync holds the lock, and frees it afterwards', async () => {
    const lock = await tryAcquireLock(database.db, 'sync:events', { clock });
    expect(lock).not.toBeNull();
    const error = await runSync(ctx, 'events', { actor: cli }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IntegrationError);
    expect((error as IntegrationError).status).toBe(409);
    expect((error as IntegrationError).message).toBe('A sync of events is already running; try again when it has finished');
    // Another kind is not blocked.
    await expect(runSync(ctx, 'runclubs', { actor: cli })).resolves.toMatchObject({ success: true });
    await lock!.release();
    await expect(runSync(ctx, 'events', { actor: cli })).resolves.toMatchObject({ success: true });
  });

  it('records a failed run when WordPress fails mid-way, and answers 502', async () => {
    wp.failNext(500, 4);
    const error = await runSync(ctx, 'events', { actor: cli, full: true }).catch((e: unknown) => e);
    expect((error as IntegrationError).status).toBe(502);
    expect((error as IntegrationError).toBody()).toMatchObject({ success: false, created: 0, updated: 0 });
    const runs = await latestRuns(ctx);
    expect(runs.events).toMatchObject({ status: 'failed', trigger: 'cli' });
    expect(runs.events?.message).toMatch(/^Sync failed: WordPress answered 500/);
    expect(runs.professionals).toMatchObject({ status: 'succeeded', created: 3, trigger: 'web' });
    // The lock was released.
    expect(await tryAcquireLock(database.db, 'sync:events', { clock }).then((l) => l?.release().then(() => true))).toBe(true);
  });

  it('records a run stopped by a cancelled job as cancelled, keeping the pages written before it, and logs it as info', async () => {
    // Page 1 (ids 1000-1099) has two changes, page 2 one: the job is cancelled before page 2 is written.
    wp.edit('events', 1000, { title: 'Race &#8211; renamed before the cancel' }, '2026-11-21T15:30:00');
    wp.edit('events', 1001, { title: 'Race &#8211; renamed too' }, '2026-11-21T15:30:00');
    wp.edit('events', 1110, { title: 'Race &#8211; never reached' }, '2026-11-21T15:30:00');
    const lines: Array<{ level: number; msg: string }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) });
    let pages = 0;
    const beforePage = async () => {
      if (++pages === 2) throw new JobCancelledError();
    };
    const error = await runSync({ ...ctx, log }, 'events', { actor: cli, full: true, beforePage }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobCancelledError);
    const runs = await latestRuns(ctx);
    expect(runs.events).toMatchObject({
      status: 'cancelled',
      created: 0,
      updated: 2,
      failed: 0,
      message: 'Sync cancelled: 0 created, 2 updated before it stopped',
    });
    expect(runs.events?.finishedAt).not.toBeNull();
    expect((await event(1000))?.eventName).toBe('Race – renamed before the cancel');
    expect((await event(1110))?.eventName).toBe('Race – number 111');
    expect(lines.filter((line) => line.msg === 'sync cancelled').map((line) => line.level)).toEqual([30]);
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    // The lock was released, and the next run writes what the cancelled one never reached.
    const next = await runSync(ctx, 'events', { actor: cli });
    expect(next).toMatchObject({ created: 0, updated: 1 });
    expect((await latestRuns(ctx)).events).toMatchObject({ status: 'succeeded' });
  });

  it('answers a clear 400 when WordPress is not configured', async () => {
    const bare = { ...ctx, config: testConfig({ DATABASE_URL: database.url }) };
    const error = await runSync(bare, 'events', { actor: cli }).catch((e: unknown) => e);
    expect((error as IntegrationError).status).toBe(400);
    expect((error as IntegrationError).toBody()).toEqual({
      success: false,
      code: 'not_configured',
      message: expect.stringContaining('set WORDPRESS_URL'),
    });
  });

  it('frees the lock of a holder that died: its connection (MySQL) or its process and heartbeat (SQLite)', async () => {
    if (database.dialect === 'mysql') {
      // A second process's pool: it takes the lock, then dies without releasing (its connections close).
      const holder = createDatabase({ url: database.url, poolMax: 2 });
      const held = await tryAcquireLock(holder, 'sync:events', { clock });
      expect(held).not.toBeNull();
      expect(await tryAcquireLock(database.db, 'sync:events', { clock })).toBeNull();
      // kill -9 of the holder: its connection goes away without RELEASE_LOCK.
      const [rows] = (await database.db.raw("SELECT IS_USED_LOCK(CONCAT('pacer:', DATABASE(), ':sync:events')) AS holder")) as [
        Array<{ holder: number }>,
      ];
      await database.db.raw('KILL ?', [Number(rows[0]!.holder)]);
      await held!.release().catch(() => undefined);
      await holder.destroy();
      // The server frees a killed connection's locks as it finishes the kill, which a busy server does a little later.
      let next: Awaited<ReturnType<typeof tryAcquireLock>> = null;
      await waitUntil(async () => (next = await tryAcquireLock(database.db, 'sync:events', { clock })) !== null, 'the lock to be free');
      await next!.release();
      return;
    }
    await database.db('sync_locks').insert({
      name: 'sync:events',
      holder: `${hostname()}|999999|x`,
      acquiredAt: encodeTimestamp(clock.now()),
      heartbeatAt: encodeTimestamp(clock.now()),
    });
    const lock = await tryAcquireLock(database.db, 'sync:events', { clock });
    expect(lock).not.toBeNull();
    expect(await tryAcquireLock(database.db, 'sync:events', { clock })).toBeNull();
    // A live holder on another machine whose heartbeat stopped more than 10 minutes ago is taken over.
    await database.db('sync_locks').where({ name: 'sync:events' }).update({ holder: 'other-host|1|y' });
    expect(await tryAcquireLock(database.db, 'sync:events', { clock })).toBeNull();
    clock.advance(11 * 60_000);
    const takeover = await tryAcquireLock(database.db, 'sync:events', { clock });
    expect(takeover).not.toBeNull();
    await takeover!.release();
    expect(await database.db('sync_locks').count({ n: '*' }).first()).toEqual({ n: 0 });
  });
});
