import type { Knex } from 'knex';
import { decodeRow, decodeTimestamp, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { withTransaction } from '@db/transaction.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { UndoDeleteSchema } from '@shared/schemas/bulk.js';
import { trashLabel, type DeletedItem } from '@shared/schemas/trash.js';
import { removeStoredFiles, type OwnedRows } from '../attachments/owned.js';
import { openStorage } from '../files/storage.js';
import { adjustPaymentTotals } from '../payments/totals.js';
import type { Actor, AppContext } from '../context.js';
import { conflict, notFound } from '../errors.js';
import type { HistoryActor } from '../history/service.js';
import { historyActorOf, recordHistory } from '../history/service.js';
import { restoreContactRows } from '../contacts/writes.js';
import { moveRowsBack, type MergeUndo } from '../duplicates/moves.js';
import { insertRecordRow, updateRecordRows } from '../records/writes.js';
import { restoreItem, type ItemSnapshot } from './items.js';
import { requireRole } from '../roles.js';
import { parseInput } from '../validate.js';

type StoredRow = Record<string, unknown>;

/** How long a deleted record can be restored before `pacer trash purge` removes it for good. */
export const TRASH_DAYS = 30;

/** Rows a record owns through a cascade (not contacts, payments or files): stored with it, restored with it. */
const CHILD_TABLES: Partial<Record<RecordType, { table: string; column: string }>> = {
  event: { table: 'event_distances', column: 'eventId' },
  runclub: { table: 'run_club_schedules', column: 'clubId' },
};

const NAME_OF: Record<RecordType, (row: StoredRow) => string> = {
  event: (row) => String(row.eventName),
  professional: (row) => String(row.businessName),
  runclub: (row) => String(row.clubName),
  brand: (row) => String(row.brandName),
  media: (row) => String(row.mediaName),
  influencer: (row) => `${String(row.firstName)} ${String(row.lastName)}`.trim(),
};

/** Everything a deleted record held, exactly as stored, so a restore puts back the same rows and ids. */
interface Snapshot {
  record: StoredRow;
  children: StoredRow[];
  owned: OwnedRows;
  /** Set when the record was merged into another (src/services/duplicates/merge.ts): what a restore undoes. */
  merge?: MergeUndo;
}

/** The rows a record's delete cascades to besides contacts, payments and files; read before the delete. */
export async function childRowsOf(trx: Knex.Transaction, kind: RecordType, id: number): Promise<StoredRow[]> {
  const child = CHILD_TABLES[kind];
  return child
    ? trx(child.table)
        .where({ [child.column]: id })
        .orderBy('id')
    : [];
}

/** Keeps a deleted record in Recently deleted, in the delete's transaction. */
export async function putInTrash(
  trx: Knex.Transaction,
  ctx: AppContext,
  who: HistoryActor,
  kind: RecordType,
  snapshot: Snapshot,
  /** What the entry says the record held (a merge: what it moved to the kept record). */
  holds: Record<string, number> = {
    contacts: snapshot.owned.contacts.length,
    payments: snapshot.owned.payments.length,
    files: snapshot.owned.files.length,
  },
): Promise<number> {
  const [id] = await trx('deleted_items').insert({
    entityType: kind,
    entityId: Number(snapshot.record.id),
    name: NAME_OF[kind](snapshot.record).slice(0, 500),
    holds: JSON.stringify(holds),
    snapshot: JSON.stringify(snapshot),
    deletedBy: who.actorId,
    deletedByLabel: who.label,
    deletedAt: encodeTimestamp(ctx.clock.now()),
  });
  return Number(id);
}

const present = (row: StoredRow): DeletedItem => ({
  id: Number(row.id),
  type: row.entityType as DeletedItem['type'],
  entityId: Number(row.entityId),
  name: String(row.name),
  deletedBy: String(row.deletedByLabel),
  deletedAt: decodeTimestamp(row.deletedAt)!,
  holds: JSON.parse(String(row.holds)) as DeletedItem['holds'],
});

/** `/settings/deleted` and `GET /api/deleted` (admins), newest first. */
export async function listDeleted(ctx: AppContext, actor: Actor): Promise<DeletedItem[]> {
  requireRole(actor, 'admin');
  const rows = (await ctx
    .db('deleted_items')
    .orderBy('id', 'desc')
    .select('id', 'entityType', 'entityId', 'name', 'holds', 'deletedByLabel', 'deletedAt')) as StoredRow[];
  return rows.map(present);
}

/** MySQL hands JSON columns (lists) back parsed; they go back in as the JSON text they were stored as. */
const asStored = (row: StoredRow): StoredRow =>
  Object.fromEntries(
    Object.entries(row).map(([column, value]) => [column, value !== null && typeof value === 'object' ? JSON.stringify(value) : value]),
  );

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Brings a deleted record back exactly: the same ids, its contacts (primary flag included), payments (and the stored
 * total they add up to), file rows and their kept bytes, event distances or club schedules; the record goes through
 * the record writes, so the search index and the counts follow. A unique value taken meanwhile (a WordPress id, an
 * id) is reported with a 409 and nothing is written.
 */
export async function restoreDeleted(ctx: AppContext, actor: Actor, id: number): Promise<DeletedItem> {
  requireRole(actor, 'admin');
  return withTransaction(ctx, async (trx) => {
    const row = (await trx('deleted_items').where({ id }).forUpdate().first()) as StoredRow | undefined;
    if (!row) throw notFound('Deleted item not found');
    return restoreRow(trx, ctx, actor, row);
  });
}

/**
 * The Undo of a delete's toast (POST /api/deleted/undo {type, ids}): brings back the records of `type` with these
 * ids that this user deleted and that are still in Recently deleted, the newest entry of each, all or none. Staff
 * may undo their own deletes; restoring anyone's is Recently deleted's, for admins.
 */
export async function undoDeletes(ctx: AppContext, actor: Actor, body: unknown): Promise<{ restored: number }> {
  requireRole(actor, 'staff');
  const { type, ids } = parseInput(UndoDeleteSchema, body);
  return withTransaction(ctx, async (trx) => {
    const rows = (await trx('deleted_items')
      .where({ entityType: type, deletedBy: actor.userId })
      .whereIn('entityId', ids)
      .orderBy('id', 'desc')
      .forUpdate()) as StoredRow[];
    const newest = new Map<number, StoredRow>();
    for (const row of rows) if (!newest.has(Number(row.entityId))) newest.set(Number(row.entityId), row);
    const missing = ids.filter((id) => !newest.has(id));
    if (missing.length > 0) throw notFound(`Nothing to undo for ${trashLabel(type).pluralNoun}: ${missing.join(', ')}`);
    for (const id of ids) await restoreRow(trx, ctx, actor, newest.get(id)!);
    return { restored: ids.length };
  });
}

/** Puts one Recently deleted entry back (see restoreDeleted) inside the caller's transaction and removes the entry. */
async function restoreRow(trx: Knex.Transaction, ctx: AppContext, actor: Actor, row: StoredRow): Promise<DeletedItem> {
  const id = Number(row.id);
  const item = present(row);
  if (item.type === 'note' || item.type === 'task') {
    await restoreItem(trx, item.type, JSON.parse(String(row.snapshot)) as ItemSnapshot);
    await trx('deleted_items').where({ id }).delete();
    ctx.log.info({ event: 'item_restored', kind: item.type, id: item.entityId, by: actor.userId }, 'item restored');
    return item;
  }
  const kind = item.type;
  const snapshot = JSON.parse(String(row.snapshot)) as Snapshot;
  const what = `${RECORD_TYPE_INFO[kind].singular} '${item.name}'`;
  if (await trx(RECORD_TYPE_INFO[kind].table).where({ id: item.entityId }).first('id'))
    throw conflict(`${what} cannot be restored: another record has its id ${item.entityId} now`);
  try {
    await insertRecordRow(trx, kind, asStored(snapshot.record));
    const children = snapshot.children.map(asStored);
    if (kind === 'event' && children.length) await trx('event_distances').insert(children);
    if (kind === 'runclub' && children.length) await trx('run_club_schedules').insert(children);
    await restoreContactRows(trx, snapshot.owned.contacts.map(asStored));
    if (snapshot.owned.payments.length) {
      const payments = snapshot.owned.payments.map(asStored);
      await trx('payments').insert(payments);
      await adjustPaymentTotals(trx, [], payments);
    }
    if (snapshot.owned.files.length) await trx('files').insert(snapshot.owned.files.map(asStored));
    if (snapshot.merge) await undoMerge(trx, ctx, actor, kind, item, snapshot.merge);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw conflict(`${what} cannot be restored: one of its unique values (such as its WordPress id) is used by another row now`);
  }
  await trx('deleted_items').where({ id }).delete();
  await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
    {
      entityType: kind,
      entityId: item.entityId,
      action: 'create',
      changes: { restoredFrom: item.id },
      record: decodeRow(columnKinds[RECORD_TYPE_INFO[kind].table], asStored(snapshot.record)),
    },
  ]);
  ctx.log.info({ event: 'record_restored', kind, id: item.entityId, by: actor.userId }, 'record restored');
  return item;
}

/**
 * Restoring a merged record undoes its merge: the rows it moved go back, and the kept record gets back the values
 * the merge took from it (only where the kept record still holds what the merge wrote).
 */
async function undoMerge(trx: Knex.Transaction, ctx: AppContext, actor: Actor, kind: RecordType, item: DeletedItem, undo: MergeUndo) {
  await moveRowsBack(trx, kind, undo, item.entityId);
  const kept = (await trx(RECORD_TYPE_INFO[kind].table).where({ id: undo.keepId }).first()) as StoredRow | undefined;
  if (kept && Object.keys(undo.keptBefore).length) await updateRecordRows(trx, kind, [undo.keepId], undo.keptBefore);
  await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
    { entityType: kind, entityId: undo.keepId, action: 'update', changes: { mergeUndone: { id: item.entityId, name: item.name } } },
  ]);
}

const filePathsOf = (row: StoredRow): string[] =>
  (JSON.parse(String(row.snapshot)) as Partial<Snapshot>).owned?.files.map((file) => String(file.filePath)) ?? [];

/**
 * The stored paths of the files kept in Recently deleted: their bytes stay until the purge, so the files check
 * leaves them alone and a migration copies them (a restore must find them).
 */
export async function storedPathsInTrash(db: Knex): Promise<string[]> {
  const rows = (await db('deleted_items').select('snapshot').orderBy('id')) as StoredRow[];
  return rows.flatMap(filePathsOf);
}

/**
 * `pacer trash purge`: removes for good what was deleted before the cut-off, and the stored bytes of its files (once
 * the rows are gone). A dry run only says what would go.
 */
export async function purgeDeleted(
  ctx: AppContext,
  options: { olderThanMs: number; dryRun: boolean },
): Promise<{ items: DeletedItem[]; files: number }> {
  const cutoff = encodeTimestamp(new Date(ctx.clock.now().getTime() - options.olderThanMs));
  const rows = (await ctx.db('deleted_items').where('deletedAt', '<', cutoff).orderBy('id')) as StoredRow[];
  const paths = rows.flatMap(filePathsOf);
  if (!options.dryRun && rows.length) {
    await ctx
      .db('deleted_items')
      .whereIn(
        'id',
        rows.map((row) => Number(row.id)),
      )
      .delete();
    await removeStoredFiles(await openStorage(ctx.config, ctx.log), paths);
  }
  return { items: rows.map(present), files: paths.length };
}
