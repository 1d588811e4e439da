import { afterEach, describe, expect, it } from 'vitest';
import { migrationSource } from '@migrations/index.js';
import { decodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

const MIGRATION = '20261128130000_run_track_type_slugs';
const stamp = encodeTimestamp(new Date('2026-11-21T09:00:00Z'));

/** The name of the next pending migration (the list is ours: [name, module] pairs). */
async function nextPending(db: TestDatabase['db']): Promise<string | undefined> {
  const [, pending] = (await db.migrate.list({ migrationSource })) as [unknown, Array<[string, unknown]>];
  return pending[0]?.[0];
}

describe(`migration ${MIGRATION} on ${testDialect}`, () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it('stores every run and track type as its slug, whichever vocabulary wrote it, and adds the new columns', async () => {
    t = await createTestDatabase({ migrate: false });
    const db = t.db;
    while ((await nextPending(db)) !== MIGRATION) await db.migrate.up({ migrationSource });
    const insert = async (table: string, row: Record<string, unknown>) => {
      const [id] = await db(table).insert({ ...row, createdAt: stamp, updatedAt: stamp });
      return Number(id);
    };
    const synced = await insert('events', {
      eventName: 'Harbour Half',
      runType: JSON.stringify(['Half Marathon', '10K', 'half-marathon']),
      trackType: JSON.stringify(['Road', 'Trail Running']),
    });
    const made = await insert('events', { eventName: 'Bay Dash', runType: JSON.stringify(['5k']), trackType: JSON.stringify(['road']) });
    const empty = await insert('events', { eventName: 'No types', runType: null, trackType: JSON.stringify([]) });
    const pro = await insert('professionals', { businessName: 'Peak Physio', trackType: JSON.stringify(['Cross_Country', ' Trail ']) });
    const before = await db('events').where({ id: made }).first();

    await db.migrate.up({ migrationSource });

    const event = async (id: number) => decodeRow<Record<string, unknown>>(columnKinds.events, await db('events').where({ id }).first());
    expect(await event(synced)).toMatchObject({ runType: ['half-marathon', '10k'], trackType: ['road', 'trail-running'] });
    expect(await event(made)).toMatchObject({ runType: ['5k'], trackType: ['road'], wordpressUnpublishedAt: null });
    // A row already in slugs is left alone, byte for byte; an empty one stays empty.
    expect(await db('events').where({ id: made }).first()).toMatchObject({ runType: before.runType, trackType: before.trackType });
    const untyped = await db('events').where({ id: empty }).first('runType', 'trackType');
    expect(untyped.runType).toBeNull();
    expect(decodeRow(columnKinds.events, untyped)).toEqual({ runType: [], trackType: [] });
    const professional = decodeRow<Record<string, unknown>>(
      columnKinds.professionals,
      await db('professionals').where({ id: pro }).first(),
    );
    expect(professional).toMatchObject({ trackType: ['cross-country', 'trail'], professionTypeOther: null, wordpressUnpublishedAt: null });
    // The new columns take values.
    await db('run_clubs').insert({
      clubName: 'Dawn Patrol',
      clubType: '["other"]',
      clubTypeOther: '["Parkrun"]',
      createdAt: stamp,
      updatedAt: stamp,
    });
    expect(decodeRow(columnKinds.run_clubs, await db('run_clubs').first('clubTypeOther'))).toEqual({ clubTypeOther: ['Parkrun'] });
    expect(await db('sync_runs').columnInfo()).toHaveProperty('warnings');

    // And it rolls back cleanly.
    await db.migrate.down({ migrationSource });
    expect(await db('professionals').columnInfo()).not.toHaveProperty('professionTypeOther');
    expect(await db('sync_runs').columnInfo()).not.toHaveProperty('warnings');
  });
});
