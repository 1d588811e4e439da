import type { Knex } from 'knex';
import { RECORD_TYPE_INFO, type ContactOwnerType, type RecordType } from '@shared/record-types.js';
import { moveContactRows } from '../contacts/writes.js';
import { OWNER_TOTAL_COLUMN, sumPayments } from '../payments/queries.js';
import { reindexRecords } from '../records/derived.js';
import { updateRecordRows } from '../records/writes.js';

/**
 * What a merge moves from the merged record to the kept one, and its undo moves back (docs/decisions/0108): every
 * table whose rows belong to a record through an owner pair of columns. A new owned table is one entry here.
 */
interface MovedTable {
  table: string;
  typeColumn: string;
  idColumn: string;
  /** Gives these rows (all of one owner type) the owner id `toId`. */
  move(trx: Knex.Transaction, kind: RecordType, ids: readonly number[], toId: number): Promise<unknown>;
}

/** A moved payment's, file's or contact's history goes with it to the receiving record's timeline (docs/decisions/0106). */
async function moveOwnedHistory(trx: Knex.Transaction, subject: string, ids: readonly number[], to: number): Promise<void> {
  await trx('history').where('entityType', subject).whereIn('entityId', ids).whereNotNull('ownerId').update({ ownerId: to });
}

const MOVED_TABLES: readonly MovedTable[] = [
  // Contacts are written only through the contact writes (test/unit/record-writes.test.ts).
  {
    table: 'contacts',
    typeColumn: 'entityType',
    idColumn: 'entityId',
    move: async (trx, kind, ids, to) => {
      await moveContactRows(trx, ids, kind as ContactOwnerType, to);
      await moveOwnedHistory(trx, 'contact', ids, to);
    },
  },
  {
    table: 'payments',
    typeColumn: 'entityType',
    idColumn: 'entityId',
    move: async (trx, _kind, ids, to) => {
      await trx('payments').whereIn('id', ids).update({ entityId: to });
      await moveOwnedHistory(trx, 'payment', ids, to);
    },
  },
  {
    table: 'files',
    typeColumn: 'entityType',
    idColumn: 'entityId',
    move: async (trx, _kind, ids, to) => {
      await trx('files').whereIn('id', ids).update({ entityId: to });
      await moveOwnedHistory(trx, 'file', ids, to);
    },
  },
  {
    table: 'history',
    typeColumn: 'entityType',
    idColumn: 'entityId',
    move: (trx, _kind, ids, to) => trx('history').whereIn('id', ids).update({ entityId: to, ownerId: to }),
  },
  // A record's search document holds its notes' words: the giving and the receiving record's are made again.
  {
    table: 'notes',
    typeColumn: 'entityType',
    idColumn: 'entityId',
    move: async (trx, kind, ids, to) => {
      const from = ((await trx('notes').whereIn('id', ids).distinct('entityId').pluck('entityId')) as number[]).map(Number);
      await trx('notes').whereIn('id', ids).update({ entityId: to });
      await reindexRecords(trx, kind, [...new Set([...from, to])]);
    },
  },
  {
    table: 'tasks',
    typeColumn: 'entityType',
    idColumn: 'entityId',
    move: (trx, _kind, ids, to) => trx('tasks').whereIn('id', ids).update({ entityId: to }),
  },
];

/** The rows a merge moved, by table: what its undo moves back. */
export type MovedRows = Record<string, number[]>;

/** The merge record kept with the merged record in Recently deleted. */
export interface MergeUndo {
  keepId: number;
  moved: MovedRows;
  /** The kept record's stored values of the fields the merge changed, as they were before it. */
  keptBefore: Record<string, unknown>;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function moveRows(trx: Knex.Transaction, move: MovedTable, kind: RecordType, ids: readonly number[], toId: number): Promise<void> {
  for (const part of chunks(ids, 400)) await move.move(trx, kind, part, toId);
}

/** Moves every owned row of `fromId` to `toId` (same type); answers the moved ids by table. */
export async function moveOwnedRows(trx: Knex.Transaction, kind: RecordType, fromId: number, toId: number): Promise<MovedRows> {
  const moved: MovedRows = {};
  for (const move of MOVED_TABLES) {
    const { table, typeColumn, idColumn } = move;
    const ids = (
      (await trx(table)
        .where({ [typeColumn]: kind, [idColumn]: fromId })
        .orderBy('id')
        .pluck('id')) as number[]
    ).map(Number);
    await moveRows(trx, move, kind, ids, toId);
    moved[table] = ids;
  }
  await refreshOwnerTotals(trx, kind, [toId]);
  return moved;
}

/** The undo: the rows the merge moved that the kept record still owns go back to the restored one. */
export async function moveRowsBack(trx: Knex.Transaction, kind: RecordType, undo: MergeUndo, restoredId: number): Promise<void> {
  for (const move of MOVED_TABLES) {
    const { table, typeColumn, idColumn } = move;
    const ids = undo.moved[table] ?? [];
    const still: number[] = [];
    for (const part of chunks(ids, 400))
      still.push(
        ...(
          (await trx(table)
            .whereIn('id', part)
            .where({ [typeColumn]: kind, [idColumn]: undo.keepId })
            .pluck('id')) as number[]
        ).map(Number),
      );
    await moveRows(trx, move, kind, still, restoredId);
  }
  await refreshOwnerTotals(trx, kind, [undo.keepId, restoredId]);
}

/** A record's stored payment total, recomputed from its payments (as the payments service does). */
async function refreshOwnerTotals(trx: Knex.Transaction, kind: RecordType, ids: readonly number[]): Promise<void> {
  const column = OWNER_TOTAL_COLUMN[kind];
  if (!column) return;
  for (const id of ids) {
    if (!(await trx(RECORD_TYPE_INFO[kind].table).where({ id }).first('id'))) continue;
    await updateRecordRows(trx, kind, [id], { [column]: await sumPayments(trx, { entityType: kind, entityId: id }) });
  }
}
