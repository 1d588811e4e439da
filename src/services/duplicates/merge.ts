import type { Knex } from 'knex';
import { columnKinds } from '@db/columns.js';
import { decodeRow } from '@db/codecs.js';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { MergeSchema, type MergePreview, type MergeResult } from '@shared/schemas/duplicates.js';
import type { Actor, AppContext } from '../context.js';
import { updateContactRow, deleteContactRows } from '../contacts/writes.js';
import { badRequest, conflict, notFound } from '../errors.js';
import { historyActorOf, recordHistory } from '../history/service.js';
import { definitionOf } from '../records/definitions.js';
import { deleteRecordRow, updateRecordRows } from '../records/writes.js';
import { requireRole } from '../roles.js';
import { childRowsOf, putInTrash } from '../trash/service.js';
import { parseInput } from '../validate.js';
import { displayName, type DuplicateKind } from './keys.js';
import { moveOwnedRows } from './moves.js';
import { kindOf } from './service.js';

/**
 * Merging two duplicates (docs/decisions/0108-duplicates-and-merge.md): the kept record takes the chosen value of
 * each field, everything the merged one owns moves to it, and the merged one goes to Recently deleted with what
 * was moved, so restoring it undoes the merge. One transaction.
 */

type StoredRow = Record<string, unknown>;
type Choice = 'keep' | 'merge';

/** The WordPress id of a synced type: a synced record is the one kept, and two synced records are never merged. */
const SYNC_ID: Partial<Record<RecordType, string>> = {
  event: 'wordpressEventId',
  professional: 'wordpressProfessionalId',
  runclub: 'wordpressClubId',
};

const CONTACT_FIELDS = ['firstName', 'lastName', 'jobTitle', 'email', 'phone', 'notes', 'mailchimpTags'] as const;

/** The fields a merge chooses between: the type's form fields (never its WordPress id). */
function fieldsOf(kind: DuplicateKind): string[] {
  if (kind === 'contact') return [...CONTACT_FIELDS];
  const sync = SYNC_ID[kind];
  return Object.keys(definitionOf(kind).schema.shape).filter((field) => field !== sync);
}

const columnsOf = (kind: DuplicateKind) => (kind === 'contact' ? columnKinds.contacts : definitionOf(kind).columns);
const tableOf = (kind: DuplicateKind) => (kind === 'contact' ? 'contacts' : RECORD_TYPE_INFO[kind].table);
const nounOf = (kind: DuplicateKind) => (kind === 'contact' ? 'contact' : RECORD_TYPE_INFO[kind].noun);
const notFoundOf = (kind: DuplicateKind) => (kind === 'contact' ? 'Contact not found' : RECORD_TYPE_INFO[kind].notFound);

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0) || value === '[]';

/** MySQL hands JSON columns back parsed; they are written back as the JSON text they were stored as. */
const asStored = (value: unknown) =>
  value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value;
const same = (a: unknown, b: unknown) => JSON.stringify(asStored(a) ?? null) === JSON.stringify(asStored(b) ?? null);

/** The default per field: the newer record's value where both have one, else whichever is not empty. */
function defaultChoice(keep: StoredRow, merge: StoredRow, field: string): Choice {
  if (isEmpty(merge[field]) || same(keep[field], merge[field])) return 'keep';
  if (isEmpty(keep[field])) return 'merge';
  return String(merge.updatedAt ?? '') > String(keep.updatedAt ?? '') ? 'merge' : 'keep';
}

function refusalOf(kind: DuplicateKind, keep: StoredRow, merge: StoredRow): string | null {
  const sync = kind === 'contact' ? undefined : SYNC_ID[kind];
  if (!sync) return null;
  const synced = (row: StoredRow) => row[sync] !== null && row[sync] !== undefined;
  if (synced(keep) && synced(merge))
    return `Both ${RECORD_TYPE_INFO[kind as RecordType].pluralNoun} are synced with the content website (they have wordpress ids ${String(keep[sync])} and ${String(merge[sync])}): merge them on the website first`;
  if (synced(merge))
    return `The ${nounOf(kind)} to merge away is synced with the content website (wordpress id ${String(merge[sync])}): keep that one instead`;
  return null;
}

async function readPair(db: Knex | Knex.Transaction, kind: DuplicateKind, keepId: number, mergeId: number, lock: boolean) {
  if (keepId === mergeId) throw badRequest(`A ${nounOf(kind)} cannot be merged with itself`);
  const read = (id: number) => {
    const query = db(tableOf(kind)).where({ id }).first();
    if (lock) void query.forUpdate();
    return query as Promise<StoredRow | undefined>;
  };
  const keep = await read(keepId);
  const merge = await read(mergeId);
  if (!keep || !merge) throw notFound(`${notFoundOf(kind)}: ${!keep ? keepId : mergeId}`);
  return { keep, merge };
}

/** GET /api/merge?type=&a=&b= (the merge screen): both records field by field and the default choice of each. */
export async function previewMerge(ctx: AppContext, query: Record<string, string | undefined>): Promise<MergePreview> {
  const kind = kindOf(query.type ?? '');
  const [keepId, mergeId] = [Number(query.a), Number(query.b)];
  if (![keepId, mergeId].every((id) => Number.isSafeInteger(id) && id > 0)) throw badRequest('a and b must be record ids');
  const { keep, merge } = await readPair(ctx.db, kind, keepId, mergeId, false);
  const columns = columnsOf(kind);
  const [shownKeep, shownMerge] = [decodeRow<StoredRow>(columns, keep), decodeRow<StoredRow>(columns, merge)];
  return {
    type: query.type!,
    keep: { id: keepId, name: displayName(kind, keep) },
    merge: { id: mergeId, name: displayName(kind, merge) },
    fields: fieldsOf(kind).map((field) => ({
      field,
      keep: shownKeep[field] ?? null,
      merge: shownMerge[field] ?? null,
      choice: defaultChoice(keep, merge, field),
    })),
    refusal: refusalOf(kind, keep, merge),
  };
}

/** POST /api/merge {type, keepId, mergeId, fields: {name: 'keep'|'merge'}} */
export async function mergeRecords(ctx: AppContext, actor: Actor, body: unknown): Promise<MergeResult> {
  requireRole(actor, 'staff');
  const input = parseInput(MergeSchema, body);
  const kind = kindOf(input.type);
  const fields = fieldsOf(kind);
  const unknown = Object.keys(input.fields).filter((field) => !fields.includes(field));
  if (unknown.length) throw badRequest(`Unknown fields for a ${nounOf(kind)}: ${unknown.join(', ')}`);
  const result = await withTransaction(ctx, async (trx) => {
    const { keep, merge } = await readPair(trx, kind, input.keepId, input.mergeId, true);
    const refusal = refusalOf(kind, keep, merge);
    if (refusal) throw conflict(refusal);
    const changed: StoredRow = {};
    const before: StoredRow = {};
    for (const field of fields) {
      const choice = input.fields[field] ?? defaultChoice(keep, merge, field);
      if (choice === 'merge' && !same(keep[field], merge[field])) {
        changed[field] = asStored(merge[field]);
        before[field] = asStored(keep[field]);
      }
    }
    const who = await historyActorOf(trx, actor);
    const names = { keep: displayName(kind, keep), merge: displayName(kind, merge) };
    const fieldChanges = Object.fromEntries(Object.keys(changed).map((field) => [field, { from: before[field], to: changed[field] }]));
    const now = encodeTimestamp(ctx.clock.now());
    if (kind === 'contact') return mergeContactRows(trx, ctx, who, input.keepId, input.mergeId, keep, merge, changed, names, fieldChanges);
    if (Object.keys(changed).length) await updateRecordRows(trx, kind, [input.keepId], { ...changed, updatedAt: now });
    const moved = await moveOwnedRows(trx, kind, input.mergeId, input.keepId);
    const children = await childRowsOf(trx, kind, input.mergeId);
    await deleteRecordRow(trx, kind, input.mergeId);
    await recordHistory(trx, ctx, who, [
      {
        entityType: kind,
        entityId: input.keepId,
        action: 'update',
        changes: { merged: { id: input.mergeId, name: names.merge }, ...fieldChanges },
      },
      { entityType: kind, entityId: input.mergeId, action: 'delete', changes: { mergedInto: { id: input.keepId, name: names.keep } } },
    ]);
    const deletedItemId = await putInTrash(
      trx,
      ctx,
      who,
      kind,
      {
        record: merge,
        children,
        owned: { contacts: [], payments: [], files: [] },
        merge: { keepId: input.keepId, moved, keptBefore: before },
      },
      { contacts: moved.contacts?.length ?? 0, payments: moved.payments?.length ?? 0, files: moved.files?.length ?? 0 },
    );
    const counts = Object.fromEntries(Object.entries(moved).map(([table, ids]) => [table, ids.length]));
    return { keepId: input.keepId, mergeId: input.mergeId, moved: counts, deletedItemId };
  });
  ctx.log.info({ event: 'records_merged', kind, keepId: input.keepId, mergeId: input.mergeId, by: actor.userId }, 'records merged');
  return result;
}

/**
 * Contacts: the kept contact takes the chosen values and the merged one's history; the merged contact is deleted (its
 * values stay in its history entry). A contact is not a record, so Recently deleted does not hold it.
 */
async function mergeContactRows(
  trx: Knex.Transaction,
  ctx: AppContext,
  who: Awaited<ReturnType<typeof historyActorOf>>,
  keepId: number,
  mergeId: number,
  keep: StoredRow,
  merge: StoredRow,
  changed: StoredRow,
  names: { keep: string; merge: string },
  fieldChanges: object,
): Promise<MergeResult> {
  void keep;
  if (Object.keys(changed).length) {
    const decoded = decodeRow<StoredRow>(columnKinds.contacts, { ...changed });
    await updateContactRow(trx, keepId, { ...decoded, updatedAt: ctx.clock.now() });
  }
  const history = (await trx('history').where({ entityType: 'contact', entityId: mergeId }).pluck('id')) as number[];
  if (history.length) await trx('history').whereIn('id', history).update({ entityId: keepId });
  await deleteContactRows(trx, [mergeId]);
  await recordHistory(trx, ctx, who, [
    { entityType: 'contact', entityId: keepId, action: 'update', changes: { merged: { id: mergeId, name: names.merge }, ...fieldChanges } },
    {
      entityType: 'contact',
      entityId: mergeId,
      action: 'delete',
      changes: { mergedInto: { id: keepId, name: names.keep }, contact: merge },
    },
  ]);
  return { keepId, mergeId, moved: { history: history.length }, deletedItemId: null };
}
