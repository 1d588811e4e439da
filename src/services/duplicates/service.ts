import type { Knex } from 'knex';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import {
  DismissSchema,
  DuplicatesQuerySchema,
  duplicateKindOf,
  type DuplicateMatch,
  type DuplicatePage,
} from '@shared/schemas/duplicates.js';
import type { Actor, AppContext } from '../context.js';
import { badRequest, notFound } from '../errors.js';
import { requireRole } from '../roles.js';
import { parseInput } from '../validate.js';
import { PAIRS, matchRows, tableOf } from './derived.js';
import { KEY_SOURCES, displayName, type DuplicateKind } from './keys.js';

/** Possible duplicates (docs/decisions/0108-duplicates-and-merge.md): the list, the dismissal, the matches of new rows. */

const DISMISSALS = 'duplicate_dismissals';
type RawRow = Record<string, unknown>;
type Db = Knex | Knex.Transaction;

export function kindOf(typeName: string): DuplicateKind {
  const kind = duplicateKindOf(typeName);
  if (!kind) throw badRequest(`Unknown type ${typeName}`);
  return kind;
}

/** The names a list shows for these ids of one kind. */
async function namesOf(db: Db, kind: DuplicateKind, ids: readonly number[]): Promise<Map<number, string>> {
  const columns = kind === 'contact' ? ['firstName', 'lastName', 'email'] : KEY_SOURCES[kind].columns;
  const rows = (await db(tableOf(kind))
    .whereIn('id', [...new Set(ids)])
    .select(['id', ...columns])) as RawRow[];
  return new Map(rows.map((row) => [Number(row.id), displayName(kind, row)]));
}

/**
 * GET /api/duplicates?type=: the candidate pairs not dismissed, in the order of their ids, a page at a time (the
 * cursor is the last pair's "a:b"). The pairs are stored as the writes keep them, so a page is one indexed read.
 */
export async function listDuplicates(ctx: AppContext, query: unknown): Promise<DuplicatePage> {
  const { type, cursor, limit } = parseInput(DuplicatesQuerySchema, query);
  const kind = kindOf(type);
  const [afterLow, afterHigh] = cursor ? cursor.split(':').map(Number) : [0, 0];
  const rows = (await ctx
    .db(`${PAIRS} as p`)
    .where('p.kind', kind)
    .where((where) =>
      where.where('p.lowId', '>', afterLow!).orWhere((same) => same.where('p.lowId', afterLow!).where('p.highId', '>', afterHigh!)),
    )
    .whereNotExists((sub) =>
      sub
        .from(`${DISMISSALS} as d`)
        .whereRaw('?? = ??', ['d.kind', 'p.kind'])
        .whereRaw('?? = ??', ['d.lowId', 'p.lowId'])
        .whereRaw('?? = ??', ['d.highId', 'p.highId'])
        .select(ctx.db.raw('1')),
    )
    .orderBy([
      { column: 'p.lowId', order: 'asc' },
      { column: 'p.highId', order: 'asc' },
    ])
    .limit(limit + 1)
    .select('p.lowId', 'p.highId', 'p.score', 'p.reasons')) as Array<{ lowId: number; highId: number; score: number; reasons: string }>;
  const page = rows.slice(0, limit);
  const names = await namesOf(
    ctx.db,
    kind,
    page.flatMap((row) => [Number(row.lowId), Number(row.highId)]),
  );
  const side = (id: number) => ({ id, name: names.get(id) ?? '' });
  const last = page[page.length - 1];
  return {
    items: page.map((row) => ({
      a: Number(row.lowId),
      b: Number(row.highId),
      score: Math.round(Number(row.score) * 100) / 100,
      reasons: row.reasons.split('|'),
      records: [side(Number(row.lowId)), side(Number(row.highId))],
    })),
    nextCursor: rows.length > limit && last ? `${last.lowId}:${last.highId}` : null,
  };
}

/** POST /api/duplicates/dismiss {type, a, b}: the pair is left out of the list for good (asking twice is fine). */
export async function dismissDuplicate(ctx: AppContext, actor: Actor, body: unknown): Promise<{ dismissed: true }> {
  requireRole(actor, 'staff');
  const input = parseInput(DismissSchema, body);
  const kind = kindOf(input.type);
  if (input.a === input.b) throw badRequest('a and b must be two different records');
  const [lowId, highId] = input.a < input.b ? [input.a, input.b] : [input.b, input.a];
  await withTransaction(ctx, async (trx) => {
    const found = (await trx(tableOf(kind)).whereIn('id', [lowId, highId]).pluck('id')) as number[];
    const missing = [lowId, highId].filter((id) => !found.map(Number).includes(id));
    if (missing.length) throw notFound(`Not found: ${missing.join(', ')}`);
    await trx(DISMISSALS)
      .insert({ kind, lowId, highId, dismissedBy: actor.userId, dismissedAt: encodeTimestamp(ctx.clock.now()) })
      .onConflict(['kind', 'lowId', 'highId'])
      .ignore();
  });
  ctx.log.info({ event: 'duplicate_dismissed', kind, lowId, highId, by: actor.userId }, 'duplicate pair dismissed');
  return { dismissed: true };
}

/**
 * The existing records each given row would duplicate (best first, at most `max` each), for the add form's notice
 * and the import preview (src/services/imports/). A row is given as the type's fields (e.g. `{brandName}`, a
 * contact's `{email, phone}`); dismissals do not apply, as the row is not stored yet. Exact keys are matched for any
 * number of rows; similar names only in calls of at most 50 rows (ask a preview's rows 50 at a time for them).
 */
export async function findMatches(ctx: AppContext, kind: DuplicateKind, rows: readonly RawRow[], max = 5): Promise<DuplicateMatch[][]> {
  const matches = await matchRows(
    ctx.db,
    kind,
    rows.map((row) => ({ row })),
  );
  const names = await namesOf(
    ctx.db,
    kind,
    matches.flatMap((list) => list.slice(0, max).map((match) => match.id)),
  );
  return matches.map((list) => list.slice(0, max).map((match) => ({ ...match, name: names.get(match.id) ?? '' })));
}

/** GET /api/duplicates/check?type=brands&brandName=…: the add form's notice. */
export async function checkNewRecord(ctx: AppContext, query: Record<string, string | undefined>): Promise<{ matches: DuplicateMatch[] }> {
  const kind = kindOf(query.type ?? '');
  const row: RawRow = {};
  for (const column of KEY_SOURCES[kind].columns) if (typeof query[column] === 'string') row[column] = query[column]!.slice(0, 500);
  const [matches] = await findMatches(ctx, kind, [row]);
  return { matches: matches ?? [] };
}
