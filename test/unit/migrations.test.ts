import { readFileSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationSource } from '@migrations/index.js';
import { migrationNames } from '@scripts/migration-files.mjs';
import { encodeTimestamp } from '@db/codecs.js';
import { createDatabase } from '@db/knex.js';
import { migrateToLatest } from '@services/schema.js';
import type { AppContext } from '@services/context.js';
import { derivedDataVersion, refreshDerivedData } from '@services/records/derived.js';
import { listRecords } from '@services/records/service.js';
import { listQuery } from '../helpers/list-query.js';
import { getStats } from '@services/stats/service.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

const stamp = encodeTimestamp(new Date('2026-11-21T09:00:00Z'));
const derivedTables = /record_search_docs|record_search_grams|record_counts/;

describe('migrations are frozen in time', () => {
  it('import only knex and their own frozen helpers, never live code', () => {
    const dir = path.resolve(import.meta.dirname, '../../migrations');
    // The migrations and their helpers; index.ts and found.ts are the runner's list, not migrations.
    const frozen = [...migrationNames(dir).map((name) => `${name}.ts`), 'helpers.ts'];
    for (const file of frozen) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
      for (const specifier of specifiers) {
        expect(specifier === 'knex' || /^\.\/[^/]+\.js$/.test(specifier), `${file} imports ${specifier}`).toBe(true);
      }
    }
  });
});

describe(`migrate and the derived data on ${testDialect}`, () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it('fills the search index and counts of records that exist before the derived tables do, once', async () => {
    t = await createTestDatabase({ migrate: false });
    const db = t.db;
    await db.migrate.up({ migrationSource }); // the initial schema only: records, no derived tables yet
    const [goldRun] = await db('events').insert({
      eventName: 'Kalgoorlie Gold Run',
      locationState: 'WA',
      featuredRace: 1,
      createdAt: stamp,
      updatedAt: stamp,
    });
    await db('events').insert({ eventName: 'Bay Dash', createdAt: stamp, updatedAt: stamp });
    const [club] = await db('run_clubs').insert({
      clubName: 'Dawn Patrol',
      clubType: JSON.stringify(['trail', 'road']),
      createdAt: stamp,
      updatedAt: stamp,
    });
    await db('influencers').insert({ firstName: 'Jane', lastName: 'Doe', createdAt: stamp, updatedAt: stamp });

    const first = await migrateToLatest(db);
    expect(first.applied).toContain('20261122000000_derived_data_versions');
    expect(first.derivedDataRebuilt).toBe(true);

    const ctx: AppContext = { db, log: pino({ level: 'silent' }), config: testConfig({ DATABASE_URL: t.url }), clock: new FakeClock() };
    expect((await listRecords(ctx, 'event', listQuery('event', { q: 'kalgoor' }))).items.map((e) => e.id)).toEqual([Number(goldRun)]);
    expect((await listRecords(ctx, 'event', listQuery('event', { filter: 'featured' }))).total).toBe(1);
    expect((await listRecords(ctx, 'event', listQuery('event', { filter: 'regular' }))).total).toBe(1);
    expect((await listRecords(ctx, 'runclub', listQuery('runclub', { type: 'trail' }))).items.map((c) => c.id)).toEqual([Number(club)]);
    expect((await listRecords(ctx, 'influencer', listQuery('influencer', { q: 'jane do' }))).total).toBe(1);
    expect(await getStats(ctx)).toMatchObject({ events: 2, runClubs: 1, influencers: 1 });
    expect(await db('derived_data_versions').where({ name: 'records' }).first('version')).toEqual({ version: derivedDataVersion() });

    // Every later start: nothing to apply and the definition unchanged, so the derived tables are not touched.
    const derivedQueries: string[] = [];
    const watch = (query: { sql: string }) => {
      if (derivedTables.test(query.sql)) derivedQueries.push(query.sql);
    };
    db.on('query', watch);
    try {
      expect(await migrateToLatest(db)).toEqual({ applied: [], derivedDataRebuilt: false });
    } finally {
      db.off('query', watch);
    }
    expect(derivedQueries).toEqual([]);
  });

  it.runIf(testDialect === 'mysql')('rebuilds once when two processes start at the same time', async () => {
    t = await createTestDatabase();
    await t.db('events').insert({ eventName: 'Kalgoorlie Gold Run', createdAt: stamp, updatedAt: stamp });
    await t.db('derived_data_versions').update({ version: '' }); // as after a change of the definition
    const processes = [createDatabase({ url: t.url }), createDatabase({ url: t.url })];
    try {
      const rebuilt = await Promise.all(processes.map((db) => refreshDerivedData(db)));
      expect(rebuilt.sort()).toEqual([false, true]);
    } finally {
      await Promise.all(processes.map((db) => db.destroy()));
    }
    expect(Number(((await t.db('record_search_docs').count({ n: '*' }).first()) as { n: number | string }).n)).toBe(1);
  });
});
