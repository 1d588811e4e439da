import type { Knex } from 'knex';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeTimestamp } from '@db/codecs.js';
import { migrateToLatest } from '@services/schema.js';
import type { AppContext } from '@services/context.js';
import { listRecords } from '@services/records/service.js';
import { listQuery } from '../helpers/list-query.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

/**
 * The day after: a later migration adds events.raceTagline (moving the taglines out of the notes) and the code
 * declares it searchable. Both are swapped in for this file only, the way a real change would land: the migration
 * list grows by one and the event definition reads one more column. Every earlier migration must still apply.
 */
const { LATER_MIGRATION } = vi.hoisted(() => ({ LATER_MIGRATION: '29990101000000_events_race_tagline' }));

vi.mock('@migrations/index.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('@migrations/index.js')>();
  const addRaceTagline = {
    async up(knex: Knex) {
      await knex.schema.alterTable('events', (t) => {
        t.string('raceTagline', 255);
      });
      await knex('events').update({ raceTagline: knex.ref('notes') });
    },
    async down(knex: Knex) {
      await knex.schema.alterTable('events', (t) => {
        t.dropColumn('raceTagline');
      });
    },
  };
  const migrations = [...(await real.migrationSource.getMigrations([])), [LATER_MIGRATION, addRaceTagline] as const];
  return { migrationSource: { ...real.migrationSource, getMigrations: async () => migrations } };
});

vi.mock('@services/records/definitions.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('@services/records/definitions.js')>();
  const event = real.RECORD_DEFINITIONS.event;
  const RECORD_DEFINITIONS = {
    ...real.RECORD_DEFINITIONS,
    event: {
      ...event,
      derivedColumns: [...event.derivedColumns, 'raceTagline'],
      searchFields: (row: Record<string, unknown>) => [...event.searchFields(row), row.raceTagline as string | null],
    },
  };
  return {
    ...real,
    RECORD_DEFINITIONS,
    ALL_DEFINITIONS: Object.values(RECORD_DEFINITIONS),
    definitionOf: (kind: keyof typeof RECORD_DEFINITIONS) => RECORD_DEFINITIONS[kind],
  };
});

const stamp = encodeTimestamp(new Date('2026-11-21T09:00:00Z'));

describe(`a searchable column added by a later migration, on ${testDialect}`, () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it('leaves every migration applicable to an empty database', async () => {
    t = await createTestDatabase({ migrate: false });
    const result = await migrateToLatest(t.db);
    expect(result.applied.at(-1)).toBe(LATER_MIGRATION);
    expect(result.applied).toContain('20261121100000_record_search_and_counts');
    expect(await t.db.schema.hasColumn('events', 'raceTagline')).toBe(true);
  });

  it('makes the new column of existing records searchable with one rebuild, not one per start', async () => {
    t = await createTestDatabase({ migrate: false });
    const db = t.db;
    // Today's database (every migration but the later one) with an event whose tagline is still in its notes.
    const today = await vi.importActual<typeof import('@migrations/index.js')>('@migrations/index.js');
    await db.migrate.latest({ migrationSource: today.migrationSource });
    const [id] = await db('events').insert({ eventName: 'Bay Dash', notes: 'Glow-worm trail at dusk', createdAt: stamp, updatedAt: stamp });

    expect(await migrateToLatest(db)).toEqual({ applied: [LATER_MIGRATION], derivedDataRebuilt: true });
    const ctx: AppContext = { db, log: pino({ level: 'silent' }), config: testConfig({ DATABASE_URL: t.url }), clock: new FakeClock() };
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'glow-worm' }))).items.map((e) => e.id)).toEqual([Number(id)]);

    expect(await migrateToLatest(db)).toEqual({ applied: [], derivedDataRebuilt: false });
  });
});
