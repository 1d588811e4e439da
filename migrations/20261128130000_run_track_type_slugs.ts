import type { Knex } from 'knex';
import { isMysql } from './helpers.js';

/**
 * Issue 29 (points 2–4): one stored form of run and track types, and what the sync must not lose.
 *
 * - Run and track types were stored as typed: slugs from the forms and the demo ('half-marathon'), WordPress's
 *   labels from the sync ('Half Marathon'). Every stored value becomes its slug; screens show labels.
 * - professionTypeOther / clubTypeOther keep the content website's words for a type outside the list (the type
 *   itself is stored as `other`).
 * - wordpressUnpublishedAt: when the sync found the post no longer published (null while it is).
 * - sync_runs.warnings: what a run adapted but kept (an out-of-list type), apart from its errors.
 *
 * Run and track types are not searched or counted, so the derived data needs no rebuild (docs/decisions/0007).
 */

/** A frozen copy of src/shared/choices.ts `typeSlug` as of this migration. */
function slug(value: string): string {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}.]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

function datetime(knex: Knex, table: Knex.AlterTableBuilder, name: string) {
  return table.specificType(name, isMysql(knex) ? 'DATETIME(3)' : 'TEXT');
}

function listOf(stored: unknown): unknown[] {
  if (Array.isArray(stored)) return stored;
  if (typeof stored !== 'string' || stored === '') return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

const BATCH = 500;

/** Rewrites the type lists of one table as slugs, a batch of rows at a time, touching only rows that change. */
async function slugLists(knex: Knex, table: string, columns: readonly string[]): Promise<void> {
  let after = 0;
  for (;;) {
    const rows: Array<Record<string, unknown>> = await knex(table)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .select('id', ...columns);
    if (rows.length === 0) return;
    for (const row of rows) {
      const changes: Record<string, string> = {};
      for (const column of columns) {
        if (row[column] === null || row[column] === undefined) continue;
        const before = listOf(row[column]).map(String);
        const slugs = [...new Set(before.map(slug).filter((item) => item !== ''))];
        if (JSON.stringify(before) !== JSON.stringify(slugs)) changes[column] = JSON.stringify(slugs);
      }
      if (Object.keys(changes).length)
        await knex(table)
          .where('id', row.id as number)
          .update(changes);
    }
    after = Number(rows[rows.length - 1]!.id);
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    datetime(knex, t, 'wordpressUnpublishedAt');
  });
  await knex.schema.alterTable('professionals', (t) => {
    t.string('professionTypeOther', 255);
    datetime(knex, t, 'wordpressUnpublishedAt');
  });
  await knex.schema.alterTable('run_clubs', (t) => {
    t.json('clubTypeOther');
    datetime(knex, t, 'wordpressUnpublishedAt');
  });
  await knex.schema.alterTable('sync_runs', (t) => {
    t.json('warnings');
  });
  await slugLists(knex, 'events', ['runType', 'trackType']);
  await slugLists(knex, 'professionals', ['trackType']);
}

/** Drops the new columns; the slugs stay (a label cannot be told back from its slug, and screens show both). */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sync_runs', (t) => {
    t.dropColumn('warnings');
  });
  await knex.schema.alterTable('run_clubs', (t) => {
    t.dropColumn('clubTypeOther');
    t.dropColumn('wordpressUnpublishedAt');
  });
  await knex.schema.alterTable('professionals', (t) => {
    t.dropColumn('professionTypeOther');
    t.dropColumn('wordpressUnpublishedAt');
  });
  await knex.schema.alterTable('events', (t) => {
    t.dropColumn('wordpressUnpublishedAt');
  });
}
