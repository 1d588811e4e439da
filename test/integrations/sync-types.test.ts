import { decodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '@services/context.js';
import { getRecord } from '@services/records/service.js';
import { latestRuns, runSync } from '@services/sync/service.js';
import { FakeWordPress, type FakePost } from '../fakes/wordpress.js';
import { FakeClock, testServiceContext } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

/** Issue 29: a directory whose types are partly outside our lists syncs without losing any of them. */
const cli = { userId: null, source: 'cli', role: 'admin' } as const;
const OLD = '2026-06-01T00:00:00';
const SITE_PROFESSIONS = ['Osteopath', 'Coach', 'Chiropractor', 'Physio', 'Exercise Physiologist'];
const SITE_CLUB_TYPES = [['Trail'], ['Parkrun', 'road'], ['Ultra Trail'], ['Track', 'Beach']];

const professionals: FakePost[] = Array.from({ length: 40 }, (_, i) => ({
  id: 100 + i,
  title: `Practice ${i + 1}`,
  modifiedGmt: OLD,
  meta: { profession_type: SITE_PROFESSIONS[i % SITE_PROFESSIONS.length], track_type: ['Road', 'Trail Running'] },
}));
const clubs: FakePost[] = Array.from({ length: 30 }, (_, i) => ({
  id: 500 + i,
  title: `Club ${i + 1}`,
  modifiedGmt: OLD,
  meta: { club_type: SITE_CLUB_TYPES[i % SITE_CLUB_TYPES.length] },
}));
const events: FakePost[] = [
  { id: 900, title: 'Harbour Half', modifiedGmt: OLD, meta: { run_type: ['Half Marathon', '10K'], track_type: 'Road, Trail' } },
  { id: 901, title: 'Hills Hundred', modifiedGmt: OLD, meta: { run_type: ['100 Miler', 'half_marathon'], track_type: ['Sand Dunes'] } },
];

describe(`WordPress sync of types and publication (${process.env.TEST_DATABASE_URL ? 'MariaDB' : 'SQLite'})`, () => {
  let database: TestDatabase;
  let wp: FakeWordPress;
  let ctx: AppContext;
  const clock = new FakeClock();

  beforeAll(async () => {
    database = await createTestDatabase();
    wp = await new FakeWordPress({ posts: { professionals, 'run-clubs': clubs, events } }).start();
    ctx = testServiceContext(database, { env: { ...wp.env, HTTP_TIMEOUT_MS: '5000' }, clock });
  });
  afterAll(async () => {
    await wp.close();
    await database.destroy();
  });

  it('blanks no profession type: those outside the list are other with the words kept, counted as warnings', async () => {
    const result = await runSync(ctx, 'professionals', { actor: cli });
    expect(result).toMatchObject({ success: true, created: 40, failed: 0, errors: [] });
    // Osteopath, Chiropractor and Exercise Physiologist: 3 of every 5.
    expect(result.warnings).toHaveLength(24);
    expect(result.message).toContain('24 warnings');
    const rows: Array<{ professionType: string | null; professionTypeOther: string | null }> = await database
      .db('professionals')
      .select('professionType', 'professionTypeOther');
    expect(rows.filter((row) => row.professionType === null)).toEqual([]);
    expect(rows.filter((row) => row.professionType === 'other').map((row) => row.professionTypeOther)).toHaveLength(24);
    const osteopath = await getRecord(ctx, 'professional', String(await idOf('professionals', 'wordpressProfessionalId', 100)));
    expect(osteopath).toMatchObject({
      professionType: 'other',
      professionTypeOther: 'Osteopath',
      trackType: ['road', 'trail-running'],
    });
    expect((await latestRuns(ctx)).professionals).toMatchObject({ status: 'succeeded', failed: 0, errors: [] });
    expect((await latestRuns(ctx)).professionals?.warnings).toHaveLength(24);
  });

  it('clears the kept words when the site moves the type into our list', async () => {
    clock.advance(3_600_000);
    wp.edit('professionals', 100, { meta: { profession_type: 'Coach' } }, '2026-11-21T08:00:00');
    const result = await runSync(ctx, 'professionals', { actor: cli });
    expect(result).toMatchObject({ full: false, updated: 1, warnings: [] });
    const id = String(await idOf('professionals', 'wordpressProfessionalId', 100));
    expect(await getRecord(ctx, 'professional', id)).toMatchObject({ professionType: 'coach', professionTypeOther: null });
  });

  it('blanks no club type: those outside the list add other and keep their words', async () => {
    const result = await runSync(ctx, 'runclubs', { actor: cli });
    expect(result).toMatchObject({ created: 30, failed: 0, errors: [] });
    expect(result.warnings).toHaveLength(22); // the 2nd, 3rd and 4th of every 4 clubs: 8 + 7 + 7
    const club = (id: number) => idOf('run_clubs', 'wordpressClubId', id).then((key) => getRecord(ctx, 'runclub', String(key)));
    expect(await club(500)).toMatchObject({ clubType: ['trail'], clubTypeOther: [] });
    expect(await club(501)).toMatchObject({ clubType: ['road', 'other'], clubTypeOther: ['Parkrun'] });
    expect(await club(502)).toMatchObject({ clubType: ['other'], clubTypeOther: ['Ultra Trail'] });
    expect(await club(503)).toMatchObject({ clubType: ['track', 'other'], clubTypeOther: ['Beach'] });
  });

  it('stores run and track types as slugs, whatever words the site uses', async () => {
    await runSync(ctx, 'events', { actor: cli });
    const rows = await database.db('events').orderBy('wordpressEventId').select('runType', 'trackType');
    expect(rows.map((row: Record<string, unknown>) => decodeRow(columnKinds.events, row))).toEqual([
      { runType: ['half-marathon', '10k'], trackType: ['road', 'trail'] },
      { runType: ['100-miler', 'half-marathon'], trackType: ['sand-dunes'] },
    ]);
  });

  it('stores that a post is no longer published, so the record stops reading as published, and clears it when back', async () => {
    clock.advance(3_600_000);
    wp.edit('professionals', 101, { status: 'draft' }, '2026-11-21T09:00:00');
    const result = await runSync(ctx, 'professionals', { actor: cli });
    expect(result.unpublished).toEqual([
      "Professional 'Practice 2' (WordPress id 101) is no longer published on the content website; kept in the CRM",
    ]);
    const id = String(await idOf('professionals', 'wordpressProfessionalId', 101));
    const unpublished = await getRecord(ctx, 'professional', id);
    expect(unpublished).toMatchObject({ wordpressProfessionalId: 101, wordpressUnpublishedAt: clock.now().toISOString() });
    // The others stay published.
    const other = await getRecord(ctx, 'professional', String(await idOf('professionals', 'wordpressProfessionalId', 102)));
    expect(other.wordpressUnpublishedAt).toBeNull();
    // A later run keeps the time it was first found unpublished.
    const first = unpublished.wordpressUnpublishedAt;
    clock.advance(3_600_000);
    await runSync(ctx, 'professionals', { actor: cli });
    expect((await getRecord(ctx, 'professional', id)).wordpressUnpublishedAt).toBe(first);
    // A dry run changes nothing; publishing it again clears the mark.
    wp.edit('professionals', 101, { status: 'publish' }, '2026-11-21T10:00:00');
    await runSync(ctx, 'professionals', { actor: cli, dryRun: true });
    expect((await getRecord(ctx, 'professional', id)).wordpressUnpublishedAt).toBe(first);
    await runSync(ctx, 'professionals', { actor: cli });
    expect((await getRecord(ctx, 'professional', id)).wordpressUnpublishedAt).toBeNull();
  });

  async function idOf(table: string, column: string, wordpressId: number): Promise<number> {
    const row = await database.db(table).where(column, wordpressId).first('id');
    return Number(row.id);
  }
});
