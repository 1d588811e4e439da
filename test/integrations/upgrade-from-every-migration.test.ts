import type { Knex } from 'knex';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { RECORD_TYPES, RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import type { AppContext } from '@services/context.js';
import { getDashboard } from '@services/dashboard/service.js';
import { rebuildPaymentTotals } from '@services/payments/totals.js';
import { rebuildDerivedData, refreshDerivedData } from '@services/records/derived.js';
import { listRecords } from '@services/records/service.js';
import { migrateToLatest } from '@services/schema.js';
import { globalSearch } from '@services/search/service.js';
import { getStats } from '@services/stats/service.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';
import { listQuery } from '../helpers/list-query.js';
import { migrateUpTo, migrationSteps } from '../helpers/migration-history.js';
import { columnsOf, DERIVED_TABLES, fillEveryTable, SEARCH_WORDS, tablesOf, TYPE_SLUGS } from '../helpers/realistic-rows.js';

/**
 * Issue 31 point 5: a database at any earlier migration of this repository upgrades to the latest without losing a
 * row (docs/decisions/0095-upgrades-proven-from-every-migration.md). For each migration M: a fresh database migrated
 * up to M only, realistic rows in every table it has then (test/helpers/realistic-rows.ts), then the real
 * `migrateToLatest`; every row must still be there with its values, changed only where a migration means to change
 * them (TRANSFORMS, NEW_COLUMN_VALUES), and the search index and counts must find and count every record.
 *
 * Every M runs on SQLite (about a second each). On MariaDB a database made from nothing costs 2–4 s of DDL, so every
 * M would take minutes: there it runs from a spread that still crosses every migration that rewrites data from the
 * state just before it (the first migration, the one before each data-rewriting migration, the last but one).
 * UPGRADE_TEST_EVERY=1 runs every M there too.
 */

const steps = await migrationSteps();
const names = steps.map((step) => step.name);

function spread(): string[] {
  const chosen = [names[0]!, ...steps.flatMap((step, i) => (step.rewritesData && i > 0 ? [names[i - 1]!] : [])), names.at(-2)!];
  return names.filter((name) => chosen.includes(name));
}
const STARTS = testDialect === 'sqlite' || process.env.UPGRADE_TEST_EVERY === '1' ? names : spread();

type Row = Record<string, unknown>;

/** Values a migration rewrites on purpose: the value expected after it, from the value before. */
const TRANSFORMS: Array<{ migration: string; table: string; columns: string[]; expected: (before: unknown) => unknown }> = [
  {
    // Run and track types stored as typed become their slugs; a list already in slugs stays as it was, byte for byte.
    migration: '20261128130000_run_track_type_slugs',
    table: 'events',
    columns: ['runType', 'trackType'],
    expected: slugged,
  },
  { migration: '20261128130000_run_track_type_slugs', table: 'professionals', columns: ['trackType'], expected: slugged },
];

/** A JSON list as read: text, or on MariaDB (its JSON type) the list itself. */
const listOf = (stored: unknown): string[] =>
  stored === null ? [] : ((Array.isArray(stored) ? stored : JSON.parse(String(stored))) as string[]);

/** A stored list with its items as TYPE_SLUGS maps them; left as it was when nothing changes. */
function slugged(before: unknown): unknown {
  if (before === null) return null;
  const items = listOf(before);
  const slugs = [...new Set(items.map((item) => TYPE_SLUGS[item] ?? item))];
  if (JSON.stringify(slugs) === JSON.stringify(items)) return before;
  return Array.isArray(before) ? slugs : JSON.stringify(slugs);
}

/**
 * What a column a migration adds holds in the rows that were there before it: null unless named here. A migration
 * that adds a column with another value for existing rows adds its line.
 */
const NEW_COLUMN_VALUES: Record<string, unknown> = {
  // 20261124130000_roles_sessions_throttle: everyone who ran the system before roles existed becomes an admin.
  'users.role': 'admin',
  // 20261125190000_sync_runs_cancelled: earlier runs were not cancelled.
  'sync_runs.cancelled': 0,
  // 20261128200000_second_factors_sign_in_events: a session started before two-factor sign-in needs no set-up.
  'sessions.secondFactorSetupRequired': 0,
};

const normalised = (value: unknown): unknown =>
  Buffer.isBuffer(value)
    ? `0x${value.toString('hex')}`
    : typeof value === 'boolean'
      ? Number(value)
      : typeof value === 'bigint'
        ? Number(value)
        : value;

interface TableSnapshot {
  columns: string[];
  rows: Row[];
}

/**
 * Added columns whose value in an existing row depends on the row (and on other tables before the upgrade): the
 * expected value, from the row and the snapshot taken before.
 */
const NEW_COLUMN_RULES: Record<string, (row: Row, before: Map<string, TableSnapshot>) => unknown> = {
  // 20261129010000_activity_timeline: a history row's record is the record itself for its own changes, the owner of
  // the payment, file or contact it is about (as that row stands), and none for a user.
  'history.ownerType': (row, before) => historyOwner(row, before)?.entityType ?? null,
  'history.ownerId': (row, before) => historyOwner(row, before)?.entityId ?? null,
  // 20261129130000_webhook_deliveries_carry_events: each delivery holds its event's message id, type and body.
  'webhook_deliveries.messageId': (row, before) => eventOf(row, before)?.messageId ?? null,
  'webhook_deliveries.eventType': (row, before) => eventOf(row, before)?.type ?? null,
  'webhook_deliveries.body': (row, before) => eventOf(row, before)?.body ?? null,
};

/**
 * Tables and columns a migration drops once what they held lives on elsewhere, with the migration: their rows and
 * values are checked where they went (by NEW_COLUMN_RULES), not where they were.
 */
const FOLDED_INTO_DELIVERIES = '20261129130000_webhook_deliveries_carry_events';
const DROPPED: Record<string, string> = {
  webhook_events: FOLDED_INTO_DELIVERIES,
  'webhook_deliveries.eventId': FOLDED_INTO_DELIVERIES,
};
const dropped = (name: string, applied: readonly string[]) => DROPPED[name] !== undefined && applied.includes(DROPPED[name]);

/** The event a delivery pointed at, before its message id, type and body were copied into it. */
const eventOf = (row: Row, before: Map<string, TableSnapshot>) =>
  before.get('webhook_events')?.rows.find((event) => Number(event.id) === Number(row.eventId));

const OWNED_TABLES: Record<string, string> = { payment: 'payments', file: 'files', contact: 'contacts' };

function historyOwner(row: Row, before: Map<string, TableSnapshot>): Row | null {
  if (row.entityType === 'user') return null;
  const table = OWNED_TABLES[String(row.entityType)];
  if (!table) return row;
  return before.get(table)?.rows.find((item) => Number(item.id) === Number(row.entityId)) ?? null;
}

/** Every row of every table but the derived ones, with its values as read, by table. */
async function snapshot(db: Knex): Promise<Map<string, TableSnapshot>> {
  const tables = new Map<string, TableSnapshot>();
  for (const table of (await tablesOf(db)).filter((name) => !DERIVED_TABLES.includes(name)).sort()) {
    const columns = [...(await columnsOf(db, table)).keys()];
    const rows = ((await db(table).select('*')) as Row[]).map((row) => Object.fromEntries(columns.map((c) => [c, normalised(row[c])])));
    tables.set(table, { columns, rows });
  }
  return tables;
}

/** How a row is found again: its id, or all it held before (a table without an id; a changed value shows as lost). */
const keyOf = (columns: readonly string[], row: Row) =>
  columns.includes('id') ? `id ${String(row.id)}` : JSON.stringify(columns.map((column) => row[column]));

/** The derived tables as a rebuild from the rows would make them (the change numbers left out: a rebuild moves them). */
async function derivedContents(db: Knex): Promise<Record<string, unknown>> {
  const read = async (table: string, order: string[]) =>
    ((await db(table).select('*').orderBy(order)) as Row[]).map((row) =>
      Object.fromEntries(Object.entries(row).map(([column, value]) => [column, normalised(value)])),
    );
  return {
    docs: await read('record_search_docs', ['kind', 'recordId']),
    grams: await read('record_search_grams', ['kind', 'gram', 'block']),
    counts: (await read('record_counts', ['kind', 'bucket'])).filter((row) => row.bucket !== '#changes'),
    paymentTotals: await read('payment_totals', ['bucket']),
  };
}

/**
 * The derived tables at M. Where today's code can write them (the packed postings exist), they are made by today's
 * rebuild and the stored version is today's, so the upgrade rebuilds only if a later migration says it must: the
 * migrations after M are then proven to keep them right. Before that, they hold what an older version left (stale
 * documents and postings, wrong counts, an older version), which the upgrade must replace in full.
 */
async function fillDerivedData(db: Knex): Promise<'current' | 'stale'> {
  const tables = await tablesOf(db);
  if (tables.includes('record_search_grams') && (await columnsOf(db, 'record_search_grams')).has('block')) {
    // Today's search text also reads the notes (20261128190000): before them, the index is left to the upgrade.
    if (tables.includes('notes')) {
      await refreshDerivedData(db);
      return 'current';
    }
    await db('derived_data_versions').update({ version: 'an-older-definition' });
    return 'stale';
  }
  const firstEvent = Number((await db('events').min({ id: 'id' }).first())!.id);
  if (tables.includes('record_search_docs')) {
    await db('record_search_docs').insert([
      { kind: 1, recordId: firstEvent, text: 'a name it no longer has', buckets: '' },
      { kind: 1, recordId: 999_999, text: 'a deleted event', buckets: ',featured,' },
    ]);
    await db('record_search_grams').insert([
      { kind: 1, gram: 6_513_249, recordId: firstEvent },
      { kind: 1, gram: 6_513_249, recordId: 999_999 },
    ]);
    await db('record_counts').insert([
      { kind: 1, bucket: 'all', total: 41 },
      { kind: 1, bucket: 'featured', total: 17 },
      { kind: 7, bucket: 'all', total: 3 },
    ]);
  }
  if (tables.includes('payment_totals')) await db('payment_totals').insert({ bucket: 'awaiting', payments: 9, cents: 100 });
  if (tables.includes('derived_data_versions')) await db('derived_data_versions').update({ version: 'an-older-definition' });
  return 'stale';
}

/** The record type kept in `table`. */
const typeOfTable = (table: string): RecordType => RECORD_TYPES.find((type) => RECORD_TYPE_INFO[type].table === table)!;

describe(`upgrading from every earlier migration on ${testDialect}`, () => {
  let t: TestDatabase | undefined;
  afterEach(async () => {
    await t?.destroy();
    t = undefined;
  });

  it('finds the migrations that rewrite data', () => {
    // The migrations the spread and bench/migrations.ts must cross; a new one that writes rows joins by itself.
    expect(steps.filter((step) => step.rewritesData).map((step) => step.name)).toEqual(
      expect.arrayContaining([
        '20261124130000_roles_sessions_throttle',
        '20261126090000_packed_search_postings',
        '20261128130000_run_track_type_slugs',
      ]),
    );
    expect(steps.find((step) => step.name === '20261124120100_list_sort_indexes')?.rewritesData).toBe(false);
  });

  for (const start of STARTS) {
    it(`keeps every row, the search index and the counts from ${start}`, { timeout: 180_000 }, async () => {
      t = await createTestDatabase({ migrate: false });
      const db = t.db;
      await migrateUpTo(db, start);
      await fillEveryTable(db);
      await fillDerivedData(db);
      const before = await snapshot(db);

      const { applied } = await migrateToLatest(db);
      expect(applied).toEqual(names.slice(names.indexOf(start) + 1));

      // Every row of every table, with every value, as the migrations after M mean it to be.
      const after = await snapshot(db);
      for (const [table, old] of before) {
        if (dropped(table, applied)) continue;
        const now = after.get(table);
        expect(now, `table ${table}`).toBeDefined();
        expect(now!.rows.length, `rows of ${table}`).toBe(old.rows.length);
        expect(old.rows.length, `rows written into ${table}`).toBeGreaterThan(0);
        const added = now!.columns.filter((column) => !old.columns.includes(column));
        const byKey = new Map(now!.rows.map((row) => [keyOf(old.columns, row), row]));
        for (const row of old.rows) {
          const expected: Row = {};
          for (const column of old.columns) {
            if (dropped(`${table}.${column}`, applied)) continue;
            const transform = TRANSFORMS.find((x) => x.table === table && x.columns.includes(column) && applied.includes(x.migration));
            expected[column] = transform ? transform.expected(row[column]) : row[column];
          }
          for (const column of added) {
            const rule = NEW_COLUMN_RULES[`${table}.${column}`];
            expected[column] = rule ? rule(row, before) : (NEW_COLUMN_VALUES[`${table}.${column}`] ?? null);
          }
          const found = byKey.get(keyOf(old.columns, expected));
          expect(found, `${table} row ${keyOf(old.columns, row)}`).toBeDefined();
          expect(found, `${table} row ${keyOf(old.columns, row)}`).toEqual(expected);
        }
      }

      // The derived tables are exactly what a rebuild from the upgraded rows makes.
      const derived = await derivedContents(db);
      await rebuildDerivedData(db);
      await rebuildPaymentTotals(db);
      expect(derived).toEqual(await derivedContents(db));

      // And the app finds and counts every record through them.
      const ctx: AppContext = { db, log: pino({ level: 'silent' }), config: testConfig({ DATABASE_URL: t.url }), clock: new FakeClock() };
      const rowsOf = (table: string) => after.get(table)!.rows;
      for (const [table, words] of Object.entries(SEARCH_WORDS)) {
        const ids = rowsOf(table)
          .map((row) => Number(row.id))
          .sort((a, b) => a - b);
        const type = table === 'contacts' ? 'contact' : typeOfTable(table);
        for (const [i, word] of words.entries()) {
          const results = await globalSearch(ctx, { q: word, limit: '20' });
          const found = Object.fromEntries(results.groups.filter((g) => g.total > 0).map((g) => [g.type, g.items.map((item) => item.id)]));
          expect(found, `search for ${word}`).toEqual({ [type]: [ids[i]] });
          if (type !== 'contact') {
            const page = await listRecords(ctx, type, listQuery(type, { q: word }));
            expect(page.items.map((item) => item.id)).toEqual([ids[i]]);
          }
        }
      }
      const stats = await getStats(ctx);
      for (const type of RECORD_TYPES)
        expect(stats[RECORD_TYPE_INFO[type].statsKey], type).toBe(rowsOf(RECORD_TYPE_INFO[type].table).length);
      const featured = rowsOf('events').filter((row) => Number(row.featuredRace) === 1).length;
      expect((await listRecords(ctx, 'event', listQuery('event', { filter: 'featured' }))).total).toBe(featured);
      const trail = rowsOf('run_clubs').filter((row) => listOf(row.clubType).includes('trail')).length;
      expect((await listRecords(ctx, 'runclub', listQuery('runclub', { type: 'trail' }))).total).toBe(trail);
      const awaiting = rowsOf('payments').filter((row) => ['pending', 'overdue'].includes(String(row.invoiceStatus)));
      const cents = awaiting.reduce((sum, row) => sum + Math.round(Number(row.amount) * 100), 0);
      expect((await getDashboard(ctx, 'UTC')).awaitingPayment).toMatchObject({ count: awaiting.length, total: (cents / 100).toFixed(2) });
    });
  }
});
