import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Knex } from 'knex';
import { encodeList, encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import type { Actor, AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { countImportRows } from '../metrics.js';
import { historyActorOf, recordHistory, type HistoryActor } from '../history/service.js';
import { requireRole } from '../roles.js';
import { insertRecordRows, setRecordColumnEach } from '../records/writes.js';
import { insertContactRows, type ContactInsert } from '../contacts/writes.js';
import type { SourceRow } from '@shared/imports/csv-records.js';
import {
  contactKey,
  existingContactKeys,
  findEventsByWordpressIds,
  listBrandNames,
  findBrandsByName,
  lockBrands,
  ensureImportLock,
  takeImportLock,
} from './queries.js';
import { planBrandRow, planEventRow, type BrandRowPlan, type EventRowPlan, type PlannedContact } from './row-plans.js';
import type { BrandsImportResult, EventsImportResult } from '@shared/imports/results.js';
import { brandKey, IMPORT_MESSAGES, isDroppedRow, noValidRowsMessage, resolveColumns, type ImportKind } from '@shared/imports/rules.js';

/**
 * The one import engine behind POST /api/{events,brands}/bulk-import and `pacer import`. Rows are checked in
 * full first, then written in batches, each batch in one transaction: a row applies whole or not at all, and an
 * import that stops midway leaves whole batches behind. Re-running converges because every write is idempotent
 * (a contact whose address the owner already has is skipped; a known brand is reused; a website is set, not added).
 */

export interface ImportSource {
  header: readonly string[];
  /** The data rows in file order, in chunks of any size (the whole body, or what the parser has ready). */
  chunks: AsyncIterable<readonly SourceRow[]> | Iterable<readonly SourceRow[]>;
}

export interface ImportOptions {
  actor: Actor;
  /** Work out and report everything, write nothing. */
  dryRun?: boolean;
  batchSize?: number;
  /** Errors kept for the answer; the rest are counted in `failedRows` and summed up in one last line. */
  maxErrors?: number;
  onProgress?: (progress: ImportProgress) => void;
  /** Awaited before each batch is written, every batch before it committed: throws to stop the import there (cancel). */
  beforeBatch?: () => Promise<void>;
  /**
   * Awaited inside each batch's transaction, last, with the counts of every row up to the batch's end as they
   * stand once it commits: a job keeps them in the same commit, so a run that takes over resumes exactly there.
   */
  onBatchWritten?: (trx: Knex.Transaction, checkpoint: ImportCheckpoint) => Promise<void>;
  /** Continue an import stopped after `onBatchWritten` said this: its rows are not read again, its counts carry on. */
  resume?: ImportCheckpoint;
}

/** The counts of an import's first `rowsRead` rows, every batch holding them committed. */
export interface ImportCheckpoint {
  rowsRead: number;
  droppedRows: number;
  appliedRows: number;
  failedRows: number;
  skipped: number;
  errors: string[];
  /** The kind's own counts (brandsCreated and contactsCreated, or updated and created). */
  counts: Record<string, number>;
}

export interface ImportProgress {
  rowsRead: number;
  appliedRows: number;
  failedRows: number;
}

type Tally = ImportCheckpoint;

/** The spec's answer plus the row counts the CLI reports and bases its exit code on. */
export type ImportReport<R> = R & {
  rowsRead: number;
  droppedRows: number;
  appliedRows: number;
  failedRows: number;
  dryRun: boolean;
};

const DEFAULT_BATCH = 2000;
/** Rows parsed between turns of the event loop while a batch is being written (see runBatches). */
const ROWS_PER_TURN = 250;
const DEFAULT_MAX_ERRORS = 1000;

function newTally(from?: ImportCheckpoint): Tally {
  if (from) return { ...from, errors: [...from.errors], counts: { ...from.counts } };
  return { rowsRead: 0, droppedRows: 0, appliedRows: 0, failedRows: 0, skipped: 0, errors: [], counts: {} };
}

/** Adds what one batch's write counted (`delta`) to `into`. */
function addBatch(into: Tally, delta: Tally, maxErrors: number): Tally {
  into.appliedRows += delta.appliedRows;
  into.failedRows += delta.failedRows;
  into.skipped += delta.skipped;
  for (const error of delta.errors) if (into.errors.length < maxErrors) into.errors.push(error);
  for (const [name, n] of Object.entries(delta.counts)) into.counts[name] = (into.counts[name] ?? 0) + n;
  return into;
}

const addCount = (tally: Tally, name: string, n: number) => (tally.counts[name] = (tally.counts[name] ?? 0) + n);

function recordFailure(tally: Tally, message: string, maxErrors: number) {
  tally.failedRows++;
  tally.skipped++;
  if (tally.errors.length < maxErrors) tally.errors.push(message);
}

const lineOf = (message: string) => Number(/^Line (\d+)/.exec(message)?.[1] ?? 0);

/** Errors in file order (unknown events are only found when their batch runs), with a count of any left out. */
function finalErrors(tally: Tally, maxErrors: number): string[] {
  const sorted = [...tally.errors].sort((a, b) => lineOf(a) - lineOf(b));
  const hidden = tally.failedRows - tally.errors.length;
  return hidden > 0 && tally.errors.length >= maxErrors ? [...sorted, `…and ${hidden} more failed rows`] : sorted;
}

/**
 * Reads rows, drops the ones the spec drops, plans each, and hands full batches of good plans to `apply`.
 * Row-level problems become line-numbered errors; a header problem or a file without usable rows is a 400.
 */
async function runBatches<P extends { line: number }>(
  ctx: AppContext,
  kind: ImportKind,
  source: ImportSource,
  options: ImportOptions,
  plan: (row: SourceRow) => { ok: true; plan: P } | { ok: false; error: string },
  /** Writes a batch in one transaction, calling `written` last in it with the batch's counts, then adds them to `tally`. */
  apply: (batch: P[], tally: Tally, written: (trx: Knex.Transaction, counted: Tally) => Promise<void>) => Promise<void>,
): Promise<Tally> {
  const tally = newTally(options.resume);
  // Rows an earlier run read and committed: skipped unread, their counts already in the tally.
  let resumeAfter = options.resume?.rowsRead ?? 0;
  const maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const resolved = resolveColumns(kind, source.header);
  if (!resolved.ok) throw badRequest(resolved.message);
  await ensureImportLock(ctx.db, kind);
  let batch: P[] = [];
  // One batch is written while the next is parsed and checked, so the CPU and the database work at the same
  // time; batches still commit one after another, in file order.
  let writing = null as Promise<void> | null;
  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    // Progress counts the rows up to the end of this batch, reported once it has committed.
    const rowsDone = tally.rowsRead;
    if (writing) await writing;
    // Every row up to this batch's end is read and every batch before it committed: with this batch's own counts,
    // what a resumed run starts from once it commits.
    const readSoFar = newTally(tally);
    // A batch boundary: every batch before this one has committed, none after it has started. Rows already in
    // memory and SQLite's synchronous driver would otherwise never give the event loop back until the end, so the
    // job's timers (lease renewal, progress) and the process's other requests get their turn here.
    await nextTurn();
    await options.beforeBatch?.();
    const delta = newTally();
    const written = async (trx: Knex.Transaction, counted: Tally) => {
      // A retried transaction calls this again: each call starts from the same snapshot.
      await options.onBatchWritten?.(trx, addBatch(newTally(readSoFar), counted, maxErrors));
    };
    writing = apply(current, delta, written).then(() => {
      addBatch(tally, delta, maxErrors);
      options.onProgress?.({ rowsRead: rowsDone, appliedRows: tally.appliedRows, failedRows: tally.failedRows });
    });
    // Awaited at the next flush or at the end; this only keeps a failure from counting as unhandled meanwhile.
    writing.catch(() => undefined);
  };
  try {
    for await (const chunk of source.chunks) {
      for (const row of chunk) {
        if (resumeAfter > 0) {
          resumeAfter--;
          continue;
        }
        tally.rowsRead++;
        // While a batch is written, the next one's parse gives the event loop a turn every few hundred rows read
        // (dropped ones included): the database's answers are then read as they arrive rather than after the whole
        // next batch (rows already in memory never wait for I/O), so the two overlap, and the process's other
        // requests and timers get a turn.
        if (writing && tally.rowsRead % ROWS_PER_TURN === 0) await nextTurn();
        if (isDroppedRow(kind, row.values, resolved.columns)) {
          tally.droppedRows++;
          continue;
        }
        const planned = plan(row);
        if (planned.ok) batch.push(planned.plan);
        else recordFailure(tally, planned.error, maxErrors);
        if (batch.length >= batchSize) await flush();
      }
    }
    await flush();
    if (writing) await writing;
  } catch (error) {
    // The file broke off (e.g. bad quoting further down): let the batch being written finish before reporting.
    if (writing) await writing.catch(() => undefined);
    throw error;
  } finally {
    // Counted whatever the end (a cancel or a broken file keeps the batches already written).
    if (!options.dryRun) countImportRows(kind, { applied: tally.appliedRows, failed: tally.failedRows, dropped: tally.droppedRows });
  }
  if (tally.rowsRead === 0) throw badRequest(IMPORT_MESSAGES.tooShort);
  if (tally.rowsRead === tally.droppedRows) throw badRequest(noValidRowsMessage(kind));
  options.onProgress?.({ rowsRead: tally.rowsRead, appliedRows: tally.appliedRows, failedRows: tally.failedRows });
  return tally;
}

function contactRow(
  contact: PlannedContact,
  entityType: 'event' | 'brand',
  entityId: number,
  createdBy: number | null,
  now: string,
): ContactInsert {
  return {
    firstName: contact.firstName,
    lastName: contact.lastName,
    jobTitle: contact.jobTitle,
    email: contact.email,
    mailchimpTags: encodeList([]),
    entityType,
    entityId,
    isPrimary: 0,
    createdAt: now,
    updatedAt: now,
    createdBy,
  };
}

/**
 * In a dry run nothing reaches the database, so the addresses "created" by earlier batches are remembered here
 * for the duplicate check that a real run makes against the table.
 */
class PendingContacts {
  private readonly seen = new Set<string>();
  constructor(private readonly active: boolean) {}
  has(key: string) {
    return this.active && this.seen.has(key);
  }
  add(key: string) {
    if (this.active) this.seen.add(key);
  }
}

/** The same for websites a dry run "set": later rows compare with them, not with the unchanged table. */
class PendingWebsites {
  private readonly set = new Map<number, string>();
  constructor(private readonly active: boolean) {}
  overlay(current: Map<number, string | null>) {
    if (this.active) for (const [id] of current) if (this.set.has(id)) current.set(id, this.set.get(id)!);
  }
  remember(websites: ReadonlyMap<number, string>) {
    if (this.active) for (const [id, url] of websites) this.set.set(id, url);
  }
}

export async function importEvents(
  ctx: AppContext,
  source: ImportSource,
  options: ImportOptions,
): Promise<ImportReport<EventsImportResult>> {
  requireRole(options.actor, 'staff');
  const dryRun = options.dryRun ?? false;
  const resolved = resolveColumns('events', source.header);
  const columns = resolved.ok ? resolved.columns : {};
  const pending = new PendingContacts(dryRun);
  const pendingWebsites = new PendingWebsites(dryRun);
  const who = await importHistoryActor(ctx, options.actor);

  const tally = await runBatches<EventRowPlan>(
    ctx,
    'events',
    source,
    options,
    (row) => planEventRow(row, columns, source.header.length),
    async (batch, tally, written) => {
      const maxErrors = options.maxErrors ?? DEFAULT_MAX_ERRORS;
      const now = encodeTimestamp(ctx.clock.now())!;
      const outcome = await withTransaction(ctx, async (trx) => {
        await takeImportLock(trx, 'events');
        const events = await findEventsByWordpressIds(trx, [...new Set(batch.map((row) => row.wordpressEventId))]);
        const byWordpressId = new Map(events.map((event) => [event.wordpressEventId, event]));
        const existing = await existingContactKeys(
          trx,
          'event',
          batch.flatMap((row) => row.contacts.map((contact) => contact.email)),
        );
        const websites = new Map<number, string>();
        const currentWebsite = new Map(events.map((event) => [event.id, event.websiteUrl]));
        pendingWebsites.overlay(currentWebsite);
        const contacts: ContactInsert[] = [];
        const failures: string[] = [];
        let applied = 0;
        let skipped = 0;
        for (const row of batch) {
          const event = byWordpressId.get(row.wordpressEventId);
          if (!event) {
            failures.push(`Line ${row.line}: no event has event_id ${row.wordpressEventId}`);
            continue;
          }
          applied++;
          if (row.website !== null && row.website !== currentWebsite.get(event.id)) {
            websites.set(event.id, row.website);
            currentWebsite.set(event.id, row.website);
          }
          for (const contact of row.contacts) {
            const key = contactKey(event.id, contact.email);
            if (existing.has(key) || pending.has(key)) {
              skipped++;
              continue;
            }
            existing.add(key);
            contacts.push(contactRow(contact, 'event', event.id, options.actor.userId, now));
          }
        }
        if (!dryRun) {
          await setRecordColumnEach(trx, 'event', 'websiteUrl', websites, { updatedAt: now });
          await insertContactRows(trx, contacts);
          const changes = new Map<number, Record<string, unknown>>();
          const storedWebsite = new Map(events.map((event) => [event.id, event.websiteUrl]));
          for (const [id, to] of websites) changes.set(id, { websiteUrl: { from: storedWebsite.get(id) ?? null, to } });
          countContactsAdded(changes, contacts);
          await recordImportHistory(trx, ctx, who, 'event', changes);
        }
        const counted = newTally();
        counted.appliedRows = applied;
        counted.skipped = skipped;
        for (const failure of failures) recordFailure(counted, failure, maxErrors);
        addCount(counted, 'updated', websites.size);
        addCount(counted, 'created', contacts.length);
        await written(trx, counted);
        return { counted, websites, contacts };
      });
      // Counted only once the batch has committed, so the numbers never include rolled-back work.
      addBatch(tally, outcome.counted, maxErrors);
      pendingWebsites.remember(outcome.websites);
      for (const contact of outcome.contacts) pending.add(contactKey(Number(contact.entityId), String(contact.email)));
    },
  );
  return {
    updated: tally.counts.updated ?? 0,
    created: tally.counts.created ?? 0,
    skipped: tally.skipped,
    errors: finalErrors(tally, options.maxErrors ?? DEFAULT_MAX_ERRORS),
    ...counts(tally),
    dryRun,
  };
}

/** An import is named in the history as `import` with a run id of its own, started by whoever ran it. */
function importHistoryActor(ctx: AppContext, actor: Actor): Promise<HistoryActor> {
  return historyActorOf(ctx.db, actor, { kind: 'import', runId: randomUUID() });
}

/** Adds to each owner's history entry of the batch how many contacts it was given. */
function countContactsAdded(changes: Map<number, Record<string, unknown>>, contacts: readonly ContactInsert[]): void {
  for (const contact of contacts) {
    const id = Number(contact.entityId);
    const changed = changes.get(id) ?? changes.set(id, {}).get(id)!;
    changed.contactsAdded = Number(changed.contactsAdded ?? 0) + 1;
  }
}

/** One history entry per record the batch changed (never one per field of untouched rows), in the batch's transaction. */
function recordImportHistory(
  trx: Knex.Transaction,
  ctx: AppContext,
  who: HistoryActor,
  entityType: 'event' | 'brand',
  changes: ReadonlyMap<number, Record<string, unknown>>,
  created: ReadonlySet<number> = new Set(),
): Promise<void> {
  return recordHistory(
    trx,
    ctx,
    who,
    [...changes].map(([entityId, fields]) => ({
      entityType,
      entityId,
      action: created.has(entityId) ? 'create' : 'update',
      changes: fields,
    })),
  );
}

function counts(tally: Tally) {
  return { rowsRead: tally.rowsRead, droppedRows: tally.droppedRows, appliedRows: tally.appliedRows, failedRows: tally.failedRows };
}

/** The fields a row fills (blank cells leave a field empty). */
const filledValues = (values: Readonly<Record<string, string | null>> = {}): Record<string, string> =>
  Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== null));

export async function importBrands(
  ctx: AppContext,
  source: ImportSource,
  options: ImportOptions,
): Promise<ImportReport<BrandsImportResult>> {
  requireRole(options.actor, 'staff');
  const dryRun = options.dryRun ?? false;
  const resolved = resolveColumns('brands', source.header);
  const columns = resolved.ok ? resolved.columns : {};
  const pending = new PendingContacts(dryRun);
  let dryRunIds = 0;
  const who = await importHistoryActor(ctx, options.actor);
  // Existing brands by matching key, loaded once per import; the lowest id wins when names collide already.
  const brandIds = new Map<string, number>();
  if (resolved.ok) {
    for (const brand of await listBrandNames(ctx.db)) {
      const key = brandKey(brand.brandName);
      if (!brandIds.has(key)) brandIds.set(key, brand.id);
    }
  }

  const tally = await runBatches<BrandRowPlan>(
    ctx,
    'brands',
    source,
    options,
    (row) => planBrandRow(row, columns, source.header.length),
    async (batch, tally, written) => {
      const now = encodeTimestamp(ctx.clock.now())!;
      const outcome = await withTransaction(ctx, async (trx) => {
        await takeImportLock(trx, 'brands');
        const known = [...new Set(batch.map((row) => brandIds.get(row.brandKey)).filter((id): id is number => id !== undefined && id > 0))];
        const stillThere = await lockBrands(trx, known);
        // A brand deleted since the names were read is created again rather than given orphan contacts.
        const gone = new Set(known.filter((id) => !stillThere.has(id)));
        const idOf = (key: string) => {
          const id = brandIds.get(key);
          return id !== undefined && !gone.has(id) ? id : undefined;
        };
        // A new brand takes its name and the further fields of its first row in the file.
        const newBrands = new Map<string, string>();
        const newValues = new Map<string, Record<string, string>>();
        for (const row of batch)
          if (idOf(row.brandKey) === undefined && !newBrands.has(row.brandKey)) {
            newBrands.set(row.brandKey, row.brandName);
            newValues.set(row.brandKey, filledValues(row.values));
          }
        // A brand another import created since the names were read is reused, not created twice.
        const foundIds = new Map<string, number>();
        for (const brand of await findBrandsByName(trx, [...newBrands.values()])) {
          const key = brandKey(brand.brandName);
          if (newBrands.delete(key)) foundIds.set(key, brand.id);
        }
        const createdIds = new Map<string, number>();
        if (dryRun) {
          for (const key of newBrands.keys()) createdIds.set(key, --dryRunIds);
        } else {
          // Keyed by the name as planned, not as read back: a name the database stored differently must still
          // find its id (a miss here once wrote contacts with an undefined owner).
          const planned = [...newBrands];
          const ids = await insertRecordRows(
            trx,
            'brand',
            planned.map(([key, brandName]) => ({
              brandName,
              ...newValues.get(key),
              createdAt: now,
              updatedAt: now,
              createdBy: options.actor.userId,
            })),
          );
          planned.forEach(([key], index) => createdIds.set(key, ids[index]!));
        }
        const existing = await existingContactKeys(
          trx,
          'brand',
          batch.flatMap((row) => row.contacts.map((contact) => contact.email)),
        );
        const contacts: ContactInsert[] = [];
        let skipped = 0;
        for (const row of batch) {
          const brandId = idOf(row.brandKey) ?? foundIds.get(row.brandKey) ?? createdIds.get(row.brandKey)!;
          for (const contact of row.contacts) {
            const key = contactKey(brandId, contact.email);
            if (existing.has(key) || pending.has(key)) {
              skipped++;
              continue;
            }
            existing.add(key);
            contacts.push(contactRow(contact, 'brand', brandId, options.actor.userId, now));
          }
        }
        if (!dryRun) {
          await insertContactRows(trx, contacts);
          const changes = new Map<number, Record<string, unknown>>();
          for (const [key, id] of createdIds)
            changes.set(id, {
              brandName: { from: null, to: newBrands.get(key) },
              ...Object.fromEntries(Object.entries(newValues.get(key) ?? {}).map(([name, value]) => [name, { from: null, to: value }])),
            });
          countContactsAdded(changes, contacts);
          await recordImportHistory(trx, ctx, who, 'brand', changes, new Set(createdIds.values()));
        }
        const counted = newTally();
        counted.appliedRows = batch.length;
        counted.skipped = skipped;
        addCount(counted, 'brandsCreated', createdIds.size);
        addCount(counted, 'contactsCreated', contacts.length);
        await written(trx, counted);
        return { createdIds, foundIds, contacts, counted };
      });
      for (const [key, id] of [...outcome.foundIds, ...outcome.createdIds]) brandIds.set(key, id);
      addBatch(tally, outcome.counted, options.maxErrors ?? DEFAULT_MAX_ERRORS);
      for (const contact of outcome.contacts) pending.add(contactKey(Number(contact.entityId), String(contact.email)));
    },
  );
  return {
    brandsCreated: tally.counts.brandsCreated ?? 0,
    contactsCreated: tally.counts.contactsCreated ?? 0,
    skipped: tally.skipped,
    errors: finalErrors(tally, options.maxErrors ?? DEFAULT_MAX_ERRORS),
    ...counts(tally),
    dryRun,
  };
}
