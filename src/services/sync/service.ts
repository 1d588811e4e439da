import type { Knex } from 'knex';
import { withTransaction } from '@db/transaction.js';
import { CONTENT_MODEL, type PostTypeModel } from '@integrations/wordpress/content-model.js';
import { describePost, mapPost, type MappedPost } from '@integrations/wordpress/map-post.js';
import type { WpPost } from '@integrations/wordpress/types.js';
import type { Actor, AppContext } from '../context.js';
import { integrationErrorFrom, IntegrationError } from '../integrations/errors.js';
import { wordpressClient } from '../integrations/clients.js';
import { encodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { readPart } from '@db/statement-parts.js';
import { insertRecordRow, updateRecordRows } from '../records/writes.js';
import { historyActorOf, recordHistory, type HistoryActor, type HistoryChange } from '../history/service.js';
import { JobCancelledError } from '../errors.js';
import { countSyncRun } from '../metrics.js';
import { requireRole } from '../roles.js';
import { tryAcquireLock } from './lock.js';
import {
  finishSyncRun,
  findSyncedRecords,
  insertSyncRun,
  lastCleanRunStart,
  latestRunPerKind,
  listSyncedIds,
  type SyncRunRow,
} from './queries.js';
import { SYNC_KINDS, type SyncKind } from '@shared/record-types.js';
import type { SyncResult, SyncRunView } from '@shared/schemas/integrations.js';

export interface SyncOptions {
  actor: Actor;
  /** Ignore the last run and read every published post. */
  full?: boolean;
  /** Read and compare everything, write nothing (and record no run). */
  dryRun?: boolean;
  onProgress?(progress: { page: number; totalPages: number; processed: number; total: number }): void;
  /** Awaited before each page is written: throws to stop the sync there (pages before it stay written). */
  beforePage?: () => Promise<void>;
}

/**
 * WordPress's modified_after compares with the site's local time, not UTC (WP_Date_Query on post_modified), so
 * an incremental run looks back this much further than the last run's start; the overlap only re-reads posts,
 * which then compare as unchanged.
 */
const INCREMENTAL_OVERLAP_MS = 14 * 3_600_000;

const SYNC_FIELDS = ['id', 'status', 'title', 'modified_gmt', 'link', 'meta', 'acf'];

export class SyncBusyError extends IntegrationError {
  constructor(kind: SyncKind) {
    super(409, 'sync_running', `A sync of ${CONTENT_MODEL[kind].plural} is already running; try again when it has finished`, {
      created: 0,
      updated: 0,
      errors: [],
    });
  }
}

/** Database errors can quote a whole statement; a line of it is enough for a log or a report. */
const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 300);

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

interface PageOutcome {
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
  errors: string[];
  warnings: string[];
}

type Write =
  | { kind: 'create'; item: Extract<MappedPost, { ok: true }> }
  | {
      kind: 'update';
      id: number;
      item: Extract<MappedPost, { ok: true }>;
      changes: Record<string, unknown>;
      /** The record as it was, for the history's old values. */
      before: Record<string, unknown>;
    };

/** Post values as the model's table stores them. */
const stored = (model: PostTypeModel, values: Record<string, unknown>) => encodeRow(columnKinds[model.table], values);

/** Marks records whose post was read and found unchanged. */
async function touchLastSync(trx: Knex.Transaction, model: PostTypeModel, ids: readonly number[], at: Date): Promise<void> {
  await updateRecordRows(trx, model.recordType, ids, { wordpressLastSync: encodeTimestamp(at) });
}

async function applyWrites(
  ctx: AppContext,
  trx: Knex.Transaction,
  model: PostTypeModel,
  writes: Write[],
  unchangedIds: number[],
  now: Date,
  actor: Actor,
  who: HistoryActor,
): Promise<void> {
  const history: HistoryChange[] = [];
  for (const write of writes) {
    if (write.kind === 'create') {
      const values = {
        ...write.item.values,
        [model.idColumn]: write.item.wordpressId,
        wordpressLastSync: now,
        createdAt: now,
        updatedAt: now,
        createdBy: actor.userId,
      };
      const id = await insertRecordRow(trx, model.recordType, stored(model, values));
      history.push({ entityType: model.recordType, entityId: id, action: 'create', changes: write.item.values });
    } else {
      await updateRecordRows(
        trx,
        model.recordType,
        [write.id],
        stored(model, { ...write.changes, wordpressLastSync: now, updatedAt: now }),
      );
      const changes = Object.fromEntries(
        Object.entries(write.changes).map(([column, to]) => [column, { from: write.before[column] ?? null, to }]),
      );
      history.push({ entityType: model.recordType, entityId: write.id, action: 'update', changes });
    }
  }
  await touchLastSync(trx, model, unchangedIds, now);
  // One entry per created or changed record; unchanged records only have their sync time touched.
  await recordHistory(trx, ctx, who, history);
}

/** Compares one page of posts with the records and writes the differences in one transaction. */
async function syncPage(
  ctx: AppContext,
  model: PostTypeModel,
  posts: WpPost[],
  options: { now: Date; dryRun: boolean; actor: Actor; who: HistoryActor },
): Promise<PageOutcome> {
  const outcome: PageOutcome = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [], warnings: [] };
  const mapped: Array<Extract<MappedPost, { ok: true }>> = [];
  for (const post of posts) {
    if (post.status && post.status !== 'publish') continue;
    const result = mapPost(model, post);
    if (!result.ok) {
      outcome.failed++;
      outcome.errors.push(result.problem);
      continue;
    }
    outcome.errors.push(...result.problems);
    outcome.warnings.push(...result.warnings);
    mapped.push(result);
  }
  const existing = await findSyncedRecords(
    ctx.db,
    model,
    mapped.map((item) => item.wordpressId),
  );
  const writes: Write[] = [];
  const unchangedIds: number[] = [];
  for (const item of mapped) {
    const record = existing.get(item.wordpressId);
    if (!record) {
      writes.push({ kind: 'create', item });
      continue;
    }
    const changes = Object.fromEntries(Object.entries(item.values).filter(([column, value]) => !sameValue(record[column], value)));
    if (Object.keys(changes).length) writes.push({ kind: 'update', id: Number(record.id), item, changes, before: record });
    else unchangedIds.push(Number(record.id));
  }
  const count = (list: Write[]) => {
    for (const write of list) outcome[write.kind === 'create' ? 'created' : 'updated']++;
  };
  outcome.unchanged = unchangedIds.length;
  if (options.dryRun) {
    count(writes);
    return outcome;
  }
  try {
    await withTransaction(ctx, (trx) => applyWrites(ctx, trx, model, writes, unchangedIds, options.now, options.actor, options.who));
    count(writes);
  } catch (pageError) {
    // One bad row must not cost the page: write item by item to find it, and report only that one.
    ctx.log.warn({ kind: model.kind, reason: firstLine(pageError) }, 'sync page failed; retrying item by item');
    await withTransaction(ctx, (trx) => touchLastSync(trx, model, unchangedIds, options.now));
    for (const write of writes) {
      try {
        await withTransaction(ctx, (trx) => applyWrites(ctx, trx, model, [write], [], options.now, options.actor, options.who));
        count([write]);
      } catch (error) {
        outcome.failed++;
        outcome.errors.push(
          `${describePost(model, { id: write.item.wordpressId }, write.item.name)}: could not be saved (${firstLine(error)})`,
        );
      }
    }
  }
  return outcome;
}

/**
 * Stores what `findUnpublished` reports, so the record shows it (a professional's badge reads 'Unpublished', not
 * 'Published'): records whose post is not published get the time the sync found it, once; records whose post is
 * published again are cleared.
 */
async function markPublication(ctx: AppContext, model: PostTypeModel, published: Set<number>, at: Date): Promise<void> {
  const records = await listSyncedIds(ctx.db, model);
  const gone = records.filter((record) => !published.has(record.wordpressId) && record.unpublishedAt === null).map((r) => r.id);
  const back = records.filter((record) => published.has(record.wordpressId) && record.unpublishedAt !== null).map((r) => r.id);
  if (gone.length === 0 && back.length === 0) return;
  await withTransaction(ctx, async (trx) => {
    await updateRecordRows(trx, model.recordType, gone, { wordpressUnpublishedAt: encodeTimestamp(at) });
    await updateRecordRows(trx, model.recordType, back, { wordpressUnpublishedAt: null });
  });
}

/** Records whose WordPress post is not among the published ones any more. */
async function findUnpublished(ctx: AppContext, model: PostTypeModel, published: Set<number>): Promise<string[]> {
  const records = await listSyncedIds(ctx.db, model);
  return records
    .filter((record) => !published.has(record.wordpressId))
    .map(
      (record) =>
        `${describePost(model, { id: record.wordpressId }, record.name)} is no longer published on the content website; kept in the CRM`,
    );
}

function summary(model: PostTypeModel, result: Omit<SyncResult, 'message' | 'success'> & { warnings: string[] }): string {
  const seen = result.created + result.updated + result.unchanged + result.failed;
  const verb = result.dryRun ? 'Dry run: would have created' : 'created';
  const parts = [
    `${seen} ${model.plural} read (${result.full ? 'full' : 'changes since the last sync'})`,
    `${result.created} ${verb}`,
    `${result.updated} updated`,
    `${result.unchanged} unchanged`,
  ];
  if (result.errors.length) parts.push(`${result.errors.length} problem${result.errors.length === 1 ? '' : 's'}`);
  if (result.warnings.length) parts.push(`${result.warnings.length} warning${result.warnings.length === 1 ? '' : 's'}`);
  if (result.unpublished.length) parts.push(`${result.unpublished.length} no longer published (kept)`);
  return parts.join(', ');
}

/**
 * One sync of one post type: the page's Sync button, the API and `pacer sync` all run this. Incremental after
 * the first clean run; idempotent; writes only the content model's columns; records the run in sync_runs.
 */
export async function runSync(ctx: AppContext, kind: SyncKind, options: SyncOptions): Promise<SyncResult> {
  requireRole(options.actor, 'staff');
  const model = CONTENT_MODEL[kind];
  const client = wordpressClient(ctx);
  const lock = await tryAcquireLock(ctx.db, `sync:${kind}`, { clock: ctx.clock });
  if (!lock) throw new SyncBusyError(kind);
  const started = ctx.clock.now();
  const t0 = performance.now();
  let runId: number | null = null;
  const totals: PageOutcome = { created: 0, updated: 0, unchanged: 0, failed: 0, errors: [], warnings: [] };
  try {
    const since = options.full ? null : await lastCleanRunStart(ctx.db, kind);
    const full = since === null;
    const dryRun = Boolean(options.dryRun);
    if (!dryRun)
      runId = await insertSyncRun(ctx.db, {
        kind,
        trigger: options.actor.source,
        startedBy: options.actor.userId,
        startedAt: started,
        full,
      });
    const modifiedAfter = since ? new Date(Date.parse(since) - INCREMENTAL_OVERLAP_MS).toISOString() : undefined;
    const published = new Set<number>();
    let processed = 0;
    const who = await historyActorOf(ctx.db, options.actor, { kind: 'sync', runId: String(runId ?? 'dry-run') });
    for await (const page of client.posts(model.restBase, { modifiedAfter, fields: SYNC_FIELDS })) {
      await options.beforePage?.();
      for (const post of page.posts) if (!post.status || post.status === 'publish') published.add(post.id);
      const outcome = await syncPage(ctx, model, page.posts, { now: started, dryRun, actor: options.actor, who });
      totals.created += outcome.created;
      totals.updated += outcome.updated;
      totals.unchanged += outcome.unchanged;
      totals.failed += outcome.failed;
      totals.errors.push(...outcome.errors);
      totals.warnings.push(...outcome.warnings);
      processed += page.posts.length;
      options.onProgress?.({ page: page.page, totalPages: page.totalPages, processed, total: page.total });
    }
    if (!full) {
      // Changed posts alone cannot show what was unpublished, so the ids of every published post are read too.
      for await (const page of client.posts(model.restBase, { fields: ['id'] })) for (const post of page.posts) published.add(post.id);
    }
    const unpublished = await findUnpublished(ctx, model, published);
    if (!dryRun) await markPublication(ctx, model, published, started);
    const durationMs = Math.round(performance.now() - t0);
    const partial = { kind, ...totals, unpublished, full, dryRun, durationMs, runId };
    const result: SyncResult = { success: true, message: summary(model, partial), ...partial };
    if (runId !== null) {
      await finishSyncRun(ctx.db, runId, {
        finishedAt: ctx.clock.now(),
        success: true,
        created: totals.created,
        updated: totals.updated,
        failed: totals.failed,
        durationMs,
        message: result.message,
        errors: totals.errors,
        warnings: totals.warnings,
        notices: unpublished,
      });
    }
    ctx.log.info(
      {
        kind,
        created: totals.created,
        updated: totals.updated,
        failed: totals.failed,
        problems: totals.errors.length,
        warnings: totals.warnings.length,
        full,
        dryRun,
      },
      'sync finished',
    );
    if (!dryRun) countSyncRun(kind, 'succeeded');
    return result;
  } catch (error) {
    if (error instanceof JobCancelledError) {
      // Not a failure: whoever cancelled the job asked for it, and the pages written before the stop stay.
      if (runId !== null) {
        await finishSyncRun(ctx.db, runId, {
          finishedAt: ctx.clock.now(),
          success: false,
          cancelled: true,
          created: totals.created,
          updated: totals.updated,
          failed: totals.failed,
          durationMs: Math.round(performance.now() - t0),
          message: `Sync cancelled: ${totals.created} created, ${totals.updated} updated before it stopped`,
          errors: totals.errors,
          warnings: totals.warnings,
          notices: [],
        }).catch((recordError: unknown) => ctx.log.error({ err: recordError }, 'could not record the cancelled sync run'));
      }
      ctx.log.info({ kind, created: totals.created, updated: totals.updated }, 'sync cancelled');
      if (!options.dryRun) countSyncRun(kind, 'cancelled');
      throw error;
    }
    const failure = integrationErrorFrom(error, { created: totals.created, updated: totals.updated, errors: totals.errors });
    const message = failure instanceof Error ? failure.message : String(failure);
    if (runId !== null) {
      await finishSyncRun(ctx.db, runId, {
        finishedAt: ctx.clock.now(),
        success: false,
        created: totals.created,
        updated: totals.updated,
        failed: totals.failed,
        durationMs: Math.round(performance.now() - t0),
        message: `Sync failed: ${message}`,
        errors: totals.errors,
        warnings: totals.warnings,
        notices: [],
      }).catch((recordError: unknown) => ctx.log.error({ err: recordError }, 'could not record the failed sync run'));
    }
    // Upstream failures are expected operational events (the message goes to the caller); anything else is a bug.
    if (failure instanceof IntegrationError) ctx.log.info({ kind, failure: message }, 'sync failed');
    else ctx.log.error({ kind, err: error }, 'sync failed');
    if (!options.dryRun) countSyncRun(kind, 'failed');
    throw failure;
  } finally {
    await lock.release();
  }
}

export function presentRun(row: SyncRunRow): SyncRunView {
  return {
    id: row.id,
    kind: row.kind as SyncKind,
    trigger: row.trigger,
    startedBy: row.startedByEmail ?? null,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    status: row.finishedAt === null ? 'unfinished' : row.success ? 'succeeded' : row.cancelled ? 'cancelled' : 'failed',
    full: row.full,
    created: row.created,
    updated: row.updated,
    failed: row.failed,
    durationMs: row.durationMs,
    message: row.message,
    errors: row.errors,
    warnings: row.warnings,
    notices: row.notices,
  };
}

/** The latest run of each kind (null when never run), for the Integrations page. */
export async function latestRuns(ctx: AppContext): Promise<Record<SyncKind, SyncRunView | null>> {
  return latestRunsOf(await readPart(latestRunPerKind(ctx.db, SYNC_KINDS)));
}

/** Each kind's latest run out of the rows `latestRunPerKind` reads (null for a kind never run). */
export function latestRunsOf(rows: readonly SyncRunRow[]): Record<SyncKind, SyncRunView | null> {
  const out = Object.fromEntries(SYNC_KINDS.map((kind) => [kind, null])) as Record<SyncKind, SyncRunView | null>;
  for (const row of rows) out[row.kind as SyncKind] = presentRun(row);
  return out;
}
