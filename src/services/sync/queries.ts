import type { Knex } from 'knex';
import { decodeRow, encodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { StatementPart } from '@db/statement-parts.js';
import { syncedColumns, type PostTypeModel } from '@integrations/wordpress/content-model.js';
import { type SyncKind } from '@shared/record-types.js';
import type { SyncRunFigures } from '@shared/schemas/integrations.js';

/** A sync_runs row. */
export interface SyncRunRow extends SyncRunFigures {
  id: number;
  kind: string;
  trigger: string;
  startedBy: number | null;
  startedByEmail?: string | null;
  success: boolean;
  /** Stopped by cancelling its job: the pages before the stop were written (success is false). */
  cancelled: boolean;
}

const decodeRun = (row: Record<string, unknown>) => decodeRow<SyncRunRow>(columnKinds.sync_runs, row);

export async function insertSyncRun(
  db: Knex,
  run: { kind: SyncKind; trigger: string; startedBy: number | null; startedAt: Date; full: boolean },
): Promise<number> {
  const [id] = await db('sync_runs').insert({
    kind: run.kind,
    trigger: run.trigger,
    startedBy: run.startedBy,
    startedAt: encodeTimestamp(run.startedAt),
    full: run.full ? 1 : 0,
    errors: '[]',
    warnings: '[]',
    notices: '[]',
  });
  return Number(id);
}

export async function finishSyncRun(
  db: Knex,
  id: number,
  result: {
    finishedAt: Date;
    success: boolean;
    cancelled?: boolean;
    created: number;
    updated: number;
    failed: number;
    durationMs: number;
    message: string;
    errors: string[];
    warnings?: string[];
    notices: string[];
  },
): Promise<void> {
  const kept = {
    errors: result.errors.slice(0, 500),
    warnings: (result.warnings ?? []).slice(0, 500),
    notices: result.notices.slice(0, 500),
  };
  await db('sync_runs')
    .where({ id })
    .update(encodeRow(columnKinds.sync_runs, { ...result, ...kept }));
}

/** Where an incremental run starts: the start of the last run that finished with every item saved. */
export async function lastCleanRunStart(db: Knex, kind: SyncKind): Promise<string | null> {
  const row = await db('sync_runs')
    .where({ kind, success: 1, failed: 0 })
    .whereNotNull('finishedAt')
    .orderBy('startedAt', 'desc')
    .first('startedAt');
  return row ? decodeRun(row).startedAt : null;
}

/** The columns of a sync run's row, as `SyncRunRow` names them. */
const SYNC_RUN_COLUMNS = [
  'id',
  'kind',
  'trigger',
  'startedBy',
  'startedAt',
  'finishedAt',
  'success',
  'cancelled',
  'full',
  'created',
  'updated',
  'failed',
  'durationMs',
  'message',
  'errors',
  'warnings',
  'notices',
] as const satisfies ReadonlyArray<keyof SyncRunRow>;

/** The latest run of each of these kinds, with the email of whoever started it. */
export function latestRunPerKind(db: Knex, kinds: readonly SyncKind[]): StatementPart<SyncRunRow[]> {
  const latest = db('sync_runs').select('kind').max({ id: 'id' }).whereIn('kind', kinds).groupBy('kind').as('latest');
  const query = db('sync_runs')
    .join(latest, 'latest.id', 'sync_runs.id')
    .leftJoin('users', 'users.id', 'sync_runs.startedBy')
    .select([...SYNC_RUN_COLUMNS.map((column) => `sync_runs.${column}`), 'users.email as startedByEmail']);
  return { query, columns: [...SYNC_RUN_COLUMNS, 'startedByEmail'], decode: (rows) => rows.map(decodeRun) };
}

export async function listRuns(db: Knex, kind: SyncKind | undefined, limit: number): Promise<SyncRunRow[]> {
  const query = db('sync_runs')
    .leftJoin('users', 'users.id', 'sync_runs.startedBy')
    .select('sync_runs.*', 'users.email as startedByEmail')
    .orderBy('sync_runs.id', 'desc')
    .limit(limit);
  if (kind) query.where('sync_runs.kind', kind);
  return (await query).map(decodeRun);
}

/** The synced columns of the records with these WordPress ids, decoded for comparison. */
export async function findSyncedRecords(
  db: Knex,
  model: PostTypeModel,
  wordpressIds: readonly number[],
): Promise<Map<number, Record<string, unknown>>> {
  if (wordpressIds.length === 0) return new Map();
  const columns = ['id', model.idColumn, model.name.column, ...syncedColumns(model)];
  const rows = await db(model.table).whereIn(model.idColumn, wordpressIds).select(columns);
  const kinds = columnKinds[model.table];
  return new Map(rows.map((row: Record<string, unknown>) => [Number(row[model.idColumn]), decodeRow<Record<string, unknown>>(kinds, row)]));
}

/** Records that came from WordPress: record id, WordPress id, name, and when the sync found the post unpublished. */
export async function listSyncedIds(
  db: Knex,
  model: PostTypeModel,
): Promise<Array<{ id: number; wordpressId: number; name: string; unpublishedAt: unknown }>> {
  const rows = await db(model.table)
    .whereNotNull(model.idColumn)
    .select('id', `${model.idColumn} as wordpressId`, `${model.name.column} as name`, 'wordpressUnpublishedAt as unpublishedAt');
  return rows.map((row: { id: number; wordpressId: number; name: string; unpublishedAt: unknown }) => ({
    id: Number(row.id),
    wordpressId: Number(row.wordpressId),
    name: String(row.name),
    unpublishedAt: row.unpublishedAt ?? null,
  }));
}
