import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type * as z from 'zod';
import { encodeRow, encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import { withBulkCheckpoints } from '@db/bulk-rows.js';
import { dialectOfDb } from '@db/knex.js';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, type ContactOwnerType, type RecordType } from '@shared/record-types.js';
import { RECORD_DEFINITIONS as RECORD_DEFS } from '@shared/records/index.js';
import type { FieldDef, Rule } from '@shared/records/define.js';
import { ContactInputSchema } from '@shared/schemas/contacts.js';
import {
  keyFields,
  mappableFields,
  resolveMapping,
  type ColumnMapping,
  type GeneralImportType,
  type ImportKey,
  type ImportMode,
} from '@shared/imports/general.js';
import type { Actor, AppContext } from '@services/context.js';
import { badRequest } from '@services/errors.js';
import { changedFields, historyActorOf, recordHistory, type HistoryActor, type HistoryChange } from '@services/history/service.js';
import { requireRole } from '@services/roles.js';
import { findMatches } from '@services/duplicates/service.js';
import { definitionOf } from '@services/records/definitions.js';
import { decodeRecord, findRecordRows } from '@services/records/queries.js';
import { insertRecordRows, updateRecordRows } from '@services/records/writes.js';
import { clearOtherPrimaries, insertContactRows, updateContactRow, type ContactInsert } from '@services/contacts/writes.js';
import { columnKinds } from '@db/columns.js';
import { findContactsByIds } from '@services/contacts/queries.js';
import { contactIdsByEmail } from '../queries.js';
import { saveImportMapping } from './mappings.js';
import type { TableRow, TableSource } from './read.js';

/**
 * The general import (docs/decisions/0107-general-import.md): rows of any list or of contacts, each column mapped to
 * a field, each row checked by the same zod rules as the forms, then created, updated or both by a key. Rows are
 * written in batches, each in one transaction. A row whose values equal the stored ones is "unchanged": nothing is
 * written and no history is kept, so running the same file twice changes nothing the second time.
 */

type RowOutcome = 'created' | 'updated' | 'unchanged' | 'skipped' | 'failed';

interface ReportRow {
  row: number;
  outcome: RowOutcome;
  message: string;
}

export interface GeneralImportOptions {
  type: GeneralImportType;
  mapping?: Readonly<Record<string, unknown>>;
  mode?: ImportMode;
  key?: ImportKey;
  dryRun?: boolean;
  /** Contacts: the owner type of every row (else an Owner Type column), and the column holding the owner's id or name. */
  ownerType?: string;
  ownerColumn?: string;
  onProgress?: (progress: { rowsRead: number; counts: Record<RowOutcome, number> }) => void | Promise<void>;
}

export interface GeneralImportResult {
  type: GeneralImportType;
  mode: ImportMode;
  key: ImportKey;
  dryRun: boolean;
  mapping: ColumnMapping;
  counts: Record<RowOutcome, number>;
  rows: ReportRow[];
}

type Values = Record<string, unknown>;

/** A stored row found by the key: its id and its form values as the schema reads them. */
interface Stored {
  id: number;
  values: Values;
}

/** One row checked and planned. */
type Plan =
  | { row: number; kind: 'create'; values: Values }
  | { row: number; kind: 'update'; id: number; before: Values; values: Values; changes: Record<string, { from: unknown; to: unknown }> }
  | { row: number; kind: 'report'; outcome: RowOutcome; message: string };

const FORMULA_GUARD = /^'(?=[=+\-@\t\r\n])/;
const TRUE_WORDS = new Set(['yes', 'y', 'true', '1', 'x']);
const FALSE_WORDS = new Set(['no', 'n', 'false', '0', '']);

/** A cell as the form would send it, by the field's rule: lists split on semicolons, yes/no as booleans. */
function cellInput(rule: Rule | 'list' | 'flag' | undefined, cell: string): unknown {
  const text = cell.replace(FORMULA_GUARD, '');
  const type = typeof rule === 'string' ? rule : rule?.type;
  if (type === 'list' || type === 'slugList' || type === 'enumList')
    return text
      .split(/[;\n]/)
      .map((part) => part.trim())
      .filter((part) => part !== '');
  if (type === 'flag') {
    const word = text.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    return text;
  }
  return text;
}

/** What the engine needs of one type. */
interface Target {
  schema: z.ZodType;
  /** The form fields (schema keys) and how a cell reads into each. */
  rules: Record<string, Rule | 'list' | 'flag' | undefined>;
  labels: Record<string, string>;
  noun: string;
  find(db: Knex.Transaction | Knex, key: string[], values: string[]): Promise<Map<string, Stored[]>>;
  create(trx: Knex.Transaction, ctx: AppContext, actor: Actor, plans: Array<{ values: Values }>): Promise<number[]>;
  update(trx: Knex.Transaction, ctx: AppContext, id: number, changed: Values): Promise<void>;
  historyType: string;
}

const keyText = (parts: readonly unknown[]) =>
  parts
    .map((part) =>
      String(part ?? '')
        .trim()
        .toLowerCase(),
    )
    .join('\u0000');

function recordTarget(kind: RecordType): Target {
  const shared = RECORD_DEFS[kind];
  const def = definitionOf(kind);
  const rules: Record<string, Rule | undefined> = {};
  const labels: Record<string, string> = { id: 'ID' };
  for (const [name, field] of Object.entries(shared.fields) as Array<[string, FieldDef]>) {
    labels[name] = field.label;
    if (field.rule) rules[name] = field.rule;
  }
  const formValues = (row: Record<string, unknown>) => {
    const decoded = decodeRecord<Values>(def, row);
    return Object.fromEntries(Object.keys(rules).map((name) => [name, decoded[name]]));
  };
  return {
    schema: def.schema as z.ZodType,
    rules,
    labels,
    noun: RECORD_TYPE_INFO[kind].noun,
    historyType: kind,
    async find(db, key, values) {
      const [first] = key as [string];
      const wanted = values.map((value) => (first === 'id' || first.startsWith('wordpress') ? value : value.toLowerCase()));
      const column = first === 'id' || first.startsWith('wordpress') ? first : db.raw('lower(??)', [first]);
      const ids = (await db(def.table)
        .whereIn(column as string, wanted)
        .select('id')) as Array<{ id: number }>;
      const rows = await findRecordRows(
        db,
        def,
        ids.map((row) => Number(row.id)),
      );
      const found = new Map<string, Stored[]>();
      for (const row of rows) {
        const text = keyText(key.map((name) => row[name]));
        found.set(text, [...(found.get(text) ?? []), { id: Number(row.id), values: formValues(row) }]);
      }
      return found;
    },
    async create(trx, ctx, actor, plans) {
      const now = encodeTimestamp(ctx.clock.now());
      return insertRecordRows(
        trx,
        kind,
        plans.map((plan) => ({ ...encodeRow(def.columns, plan.values), createdAt: now, updatedAt: now, createdBy: actor.userId })),
      );
    },
    async update(trx, ctx, id, changed) {
      await updateRecordRows(trx, kind, [id], { ...encodeRow(def.columns, changed), updatedAt: encodeTimestamp(ctx.clock.now()) });
    },
  };
}

const CONTACT_FORM = [
  'firstName',
  'lastName',
  'jobTitle',
  'email',
  'phone',
  'notes',
  'entityType',
  'entityId',
  'isPrimary',
  'mailchimpTags',
];

function contactTarget(): Target {
  const labels: Record<string, string> = { id: 'ID' };
  for (const field of mappableFields('contact')) labels[field.name] = field.label;
  const rules: Target['rules'] = Object.fromEntries(CONTACT_FORM.map((name) => [name, undefined]));
  rules.isPrimary = 'flag';
  return {
    schema: ContactInputSchema,
    rules,
    labels,
    noun: 'contact',
    historyType: 'contact',
    async find(db, key, values) {
      const [first] = key as [string];
      let ids: number[];
      if (first === 'email') ids = await contactIdsByEmail(db, CONTACT_OWNER_TYPES, values);
      else {
        const column = first === 'id' ? 'id' : db.raw('lower(??)', [first]);
        const rows = (await db('contacts')
          .whereIn(column as string, first === 'id' ? values : values.map((value) => value.toLowerCase()))
          .select('id')) as Array<{ id: number }>;
        ids = rows.map((row) => Number(row.id));
      }
      const contacts = ids.length ? await findContactsByIds(db, ids) : [];
      const found = new Map<string, Stored[]>();
      for (const contact of contacts) {
        const record = contact as unknown as Values;
        const text = keyText(key.map((name) => record[name]));
        const values = Object.fromEntries(CONTACT_FORM.map((name) => [name, record[name]]));
        found.set(text, [...(found.get(text) ?? []), { id: contact.id, values }]);
      }
      return found;
    },
    async create(trx, ctx, actor, plans) {
      // Encoded once for the batch, not once per row.
      const now = encodeTimestamp(ctx.clock.now());
      // In multi-row statements (src/services/contacts/writes.ts), as the spec's imports write contacts.
      const rows = plans.map(
        (plan) =>
          ({ ...encodeRow(columnKinds.contacts, plan.values), createdAt: now, updatedAt: now, createdBy: actor.userId }) as ContactInsert,
      );
      const ids = await insertContactRows(trx, rows, ['phone', 'notes']);
      for (const [index, plan] of plans.entries())
        if (plan.values.isPrimary)
          await clearOtherPrimaries(trx, plan.values.entityType as ContactOwnerType, Number(plan.values.entityId), ids[index]!);
      return ids;
    },
    async update(trx, ctx, id, changed) {
      await updateContactRow(trx, id, { ...changed, updatedAt: ctx.clock.now() });
    },
  };
}

const targetOf = (type: GeneralImportType): Target => (type === 'contact' ? contactTarget() : recordTarget(type));

/**
 * Rows written per transaction: as many as the spec's imports write (src/services/imports/service.ts), as each
 * commit costs a sync to disk and each batch a lookup per key, whatever its size.
 */
const BATCH_ROWS = 2000;

/** The reader's chunks joined into batches of at least `size` rows (the last may have fewer). */
async function* inBatches(chunks: AsyncIterable<TableRow[]>, size: number): AsyncGenerator<TableRow[]> {
  let batch: TableRow[] = [];
  for await (const chunk of chunks) {
    batch = batch.length ? batch.concat(chunk) : chunk;
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/**
 * The batches, each read (and its CSV parsed) while the one before is planned and written: on MariaDB/MySQL the
 * server writes a batch while this process parses the next, instead of waiting for it.
 */
async function* readingAhead<T>(items: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = items[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      // A failure of the read ahead is thrown when its turn comes, not reported as unhandled meanwhile.
      next.catch(() => undefined);
      const item = await next;
      if (item.done) return;
      next = iterator.next();
      yield item.value;
    }
  } finally {
    await iterator.return?.();
  }
}

/** The first problem of a failed parse, named by the field's label. */
function problemOf(error: z.ZodError, labels: Record<string, string>): string {
  const issue = error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  if (issue.code === 'unrecognized_keys') return `Unknown field(s): ${issue.keys.join(', ')}`;
  return field && labels[field] && !issue.message.startsWith(labels[field]) ? `${labels[field]}: ${issue.message}` : issue.message;
}

/** Names an owner by its id or its name: one statement per batch of owner cells. */
async function resolveOwners(
  db: Knex | Knex.Transaction,
  type: ContactOwnerType,
  cells: readonly string[],
): Promise<Map<string, number[]>> {
  const found = new Map<string, number[]>();
  const { table } = RECORD_TYPE_INFO[type];
  const numeric = cells.filter((cell) => /^\d+$/.test(cell.trim())).map((cell) => Number(cell.trim()));
  const names = cells.filter((cell) => !/^\d+$/.test(cell.trim())).map((cell) => cell.trim().toLowerCase());
  const nameFields = keyFields(type, 'name')!;
  if (numeric.length) {
    const rows = (await db(table).whereIn('id', numeric).select('id')) as Array<{ id: number }>;
    for (const row of rows) found.set(String(row.id), [Number(row.id)]);
  }
  if (names.length) {
    const nameSql =
      nameFields.length === 1
        ? db.raw('lower(??)', nameFields)
        : db.raw(dialectOfDb(db) === 'sqlite' ? `lower(?? || ' ' || ??)` : `lower(concat(??, ' ', ??))`, nameFields);
    const rows = (await db(table)
      .whereIn(nameSql as unknown as string, names)
      .select('id', ...nameFields)) as Array<Record<string, unknown>>;
    for (const row of rows) {
      const text = nameFields
        .map((name) => String(row[name] ?? ''))
        .join(' ')
        .trim()
        .toLowerCase();
      found.set(text, [...(found.get(text) ?? []), Number(row.id)]);
    }
  }
  return found;
}

const GENERAL_IMPORT_MESSAGES = {
  keyNotMapped: (key: string) => `The key ${key} needs its column mapped`,
  noKey: (key: string, type: string) => `${type} cannot be matched by ${key}`,
  noOwnerType: 'Contacts need an owner type: --owner-type, or an Owner Type column',
  noOwner: 'Contacts need an owner column (the owner\u2019s id or name)',
};

/** The default key: the export's ID when the file has it, else email (contacts) or the name. */
function keyOf(type: GeneralImportType, mapping: ColumnMapping, key: ImportKey | undefined): ImportKey {
  if (key) return key;
  if (Object.values(mapping).includes('id')) return 'id';
  return type === 'contact' ? 'email' : 'name';
}

/**
 * Runs an import of `source` (./read.ts) and answers the report. Bad options (an unknown field, a key the type does
 * not have or whose column is not mapped) are a 400 before any row is read.
 */
export async function runGeneralImport(
  ctx: AppContext,
  actor: Actor,
  source: TableSource,
  options: GeneralImportOptions,
): Promise<GeneralImportResult> {
  requireRole(actor, 'staff');
  const { type } = options;
  const mode = options.mode ?? 'upsert';
  const dryRun = options.dryRun ?? false;
  const resolved = resolveMapping(type, source.header, options.mapping);
  if (!resolved.ok) throw badRequest(resolved.message);
  const mapping = resolved.mapping;
  if (type === 'contact' && options.ownerColumn) {
    if (!source.header.includes(options.ownerColumn)) throw badRequest(`The file has no column ${options.ownerColumn}`);
    for (const column of Object.keys(mapping)) if (mapping[column] === 'entityId') mapping[column] = null;
    mapping[options.ownerColumn] = 'entityId';
  }
  const key = keyOf(type, mapping, options.key);
  const keyNames = keyFields(type, key);
  if (!keyNames) throw badRequest(GENERAL_IMPORT_MESSAGES.noKey(key, type));
  const mapped = new Set(Object.values(mapping).filter((field): field is string => field !== null));
  if (mode !== 'create' && !keyNames.every((name) => mapped.has(name))) throw badRequest(GENERAL_IMPORT_MESSAGES.keyNotMapped(key));
  let ownerType: ContactOwnerType | undefined;
  if (type === 'contact') {
    if (options.ownerType !== undefined) {
      if (!(CONTACT_OWNER_TYPES as readonly string[]).includes(options.ownerType))
        throw badRequest(`Owner type must be one of ${CONTACT_OWNER_TYPES.join(', ')}`);
      ownerType = options.ownerType as ContactOwnerType;
    } else if (mode !== 'update' && !mapped.has('entityType')) throw badRequest(GENERAL_IMPORT_MESSAGES.noOwnerType);
    if (mode !== 'update' && !mapped.has('entityId')) throw badRequest(GENERAL_IMPORT_MESSAGES.noOwner);
  }

  // A real run's mapping (the owner column included) is offered again by /imports/new for a file with this header.
  if (!dryRun) await saveImportMapping(ctx, actor, type, source.header, mapping);

  const target = targetOf(type);
  const columns = source.header.map((column) => mapping[column] ?? null);
  const counts: Record<RowOutcome, number> = { created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 };
  const report: ReportRow[] = [];
  /** Keys this run creates, so a second row with the same key does not create a twin. */
  const createdKeys = new Map<string, number>();
  let who: HistoryActor | null = null;
  const runId = randomUUID();
  let rowsRead = 0;
  /**
   * Owners already looked up by this run, by type: the cells asked (trimmed, lowercased) and what they named. A
   * batch asks only for cells no earlier batch asked for: the names are not indexed (lower(name)), so a statement
   * per batch read the whole owner table 50 times in an import of 100,000 contacts.
   */
  const ownerLookups = new Map<ContactOwnerType, { asked: Set<string>; found: Map<string, number[]> }>();
  const ownersNamed = async (owner: ContactOwnerType, cells: readonly string[]): Promise<Map<string, number[]>> => {
    let known = ownerLookups.get(owner);
    if (!known) ownerLookups.set(owner, (known = { asked: new Set(), found: new Map() }));
    const fresh = [...new Set(cells.map((cell) => cell.trim().toLowerCase()))].filter((cell) => !known.asked.has(cell));
    if (fresh.length) {
      for (const [text, ids] of await resolveOwners(ctx.db, owner, fresh)) known.found.set(text, ids);
      for (const cell of fresh) known.asked.add(cell);
    }
    return known.found;
  };

  const valuesOf = (row: TableRow): Values => {
    const values: Values = {};
    columns.forEach((field, index) => {
      if (field === null || field === 'id' || !(field in target.rules || field === 'entityId')) {
        if (field !== null) values[field] = (row.cells[index] ?? '').trim();
        return;
      }
      values[field] = cellInput(target.rules[field], row.cells[index] ?? '');
    });
    return values;
  };

  // A real run checkpoints SQLite's WAL less often (src/db/bulk-rows.ts); a dry run writes nothing.
  if (dryRun) await importRows();
  else await withBulkCheckpoints(ctx.db, importRows);
  return { type, mode, key, dryRun, mapping, counts, rows: report };

  async function importRows(): Promise<void> {
    // A dry run keeps the reader's chunks: possibleDuplicates looks for similar names per chunk of few creates.
    for await (const chunk of dryRun ? source.rows : readingAhead(inBatches(source.rows, BATCH_ROWS))) {
      const plans = await planBatch(chunk);
      const duplicates = dryRun ? await possibleDuplicates(plans) : new Map<number, string>();
      if (!dryRun && plans.some((plan) => plan.kind !== 'report')) {
        who ??= await historyActorOf(ctx.db, actor, { kind: 'import', runId });
        await withTransaction(ctx, (trx) => writeBatch(trx, plans, who!));
      }
      for (const plan of plans) {
        const outcome = plan.kind === 'create' ? 'created' : plan.kind === 'update' ? 'updated' : plan.outcome;
        const message =
          plan.kind === 'create'
            ? (duplicates.get(plan.row) ?? '')
            : plan.kind === 'update'
              ? `Changed: ${Object.keys(plan.changes)
                  .map((field) => target.labels[field] ?? field)
                  .join(', ')}`
              : plan.message;
        counts[outcome]++;
        report.push({ row: plan.row, outcome, message });
      }
      rowsRead += chunk.length;
      await options.onProgress?.({ rowsRead, counts: { ...counts } });
    }
  }

  /**
   * The preview's (a dry run's) warning on a row it would create that matches a stored record or contact by a
   * duplicate key (docs/decisions/0108): the best match, by row. Similar names are looked for only in batches of at
   * most 50 creates (findMatches), as reading the trigram postings for every row would make a large preview slow;
   * a real run does not look, so an import costs what it did.
   */
  async function possibleDuplicates(plans: readonly Plan[]): Promise<Map<number, string>> {
    const creates = plans.filter((plan): plan is Extract<Plan, { kind: 'create' }> => plan.kind === 'create');
    const found = new Map<number, string>();
    if (creates.length === 0) return found;
    const matches = await findMatches(
      ctx,
      type,
      creates.map((plan) => plan.values as Record<string, unknown>),
      1,
    );
    creates.forEach((plan, index) => {
      const [best] = matches[index] ?? [];
      if (best) found.set(plan.row, `Possible duplicate of ${best.name || target.noun} (id ${best.id}): ${best.reasons.join(', ')}`);
    });
    return found;
  }

  async function planBatch(chunk: readonly TableRow[]): Promise<Plan[]> {
    const rows = chunk.map((row) => ({ row: row.row, values: valuesOf(row) }));
    // Owners of contacts, by id or name.
    const owners = new Map<string, Map<string, number[]>>();
    if (type === 'contact') {
      const byType = new Map<ContactOwnerType, string[]>();
      for (const { values } of rows) {
        const ownerTypeOfRow = (ownerType ??
          String(values.entityType ?? '')
            .trim()
            .toLowerCase()) as ContactOwnerType;
        if (
          typeof values.entityId === 'string' &&
          values.entityId !== '' &&
          (CONTACT_OWNER_TYPES as readonly string[]).includes(ownerTypeOfRow)
        ) {
          const cells = byType.get(ownerTypeOfRow);
          if (cells) cells.push(values.entityId);
          else byType.set(ownerTypeOfRow, [values.entityId]);
        }
      }
      for (const [owner, cells] of byType) owners.set(owner, await ownersNamed(owner, cells));
    }
    const keysOfRows = rows.map(({ values }) => keyNames!.map((name) => String(values[name] ?? '').trim()));
    const present = keysOfRows.filter((parts) => parts.every((part) => part !== ''));
    const found = present.length
      ? await target.find(ctx.db, keyNames!, [...new Set(present.map((parts) => parts[0]!))])
      : new Map<string, Stored[]>();
    return rows.map(({ row, values }, index): Plan => {
      const fail = (message: string): Plan => ({ row, kind: 'report', outcome: 'failed', message });
      if (type === 'contact') {
        if (ownerType) values.entityType = ownerType;
        else if (typeof values.entityType === 'string') values.entityType = values.entityType.trim().toLowerCase();
        if (typeof values.entityId === 'string') {
          if (values.entityId === '') delete values.entityId;
          else {
            const ids = owners.get(values.entityType as string)?.get(values.entityId.toLowerCase());
            if (!ids || ids.length === 0) return fail(`Owner not found: ${values.entityId}`);
            if (ids.length > 1) return fail(`${ids.length} records are named ${values.entityId}; give the owner's id`);
            values.entityId = ids[0];
          }
        }
      }
      delete values.id;
      // A record created by its WordPress id keeps it, so the next run (and the sync) finds it.
      const wordpressId =
        key === 'wordpressId' && /^\d+$/.test(String(values[keyNames![0]!])) ? { [keyNames![0]!]: Number(values[keyNames![0]!]) } : {};
      for (const name of Object.keys(values)) if (!(name in target.rules)) delete values[name];
      const parts = keysOfRows[index]!;
      const hasKey = parts.every((part) => part !== '');
      const text = keyText(parts);
      const matches = hasKey ? (found.get(text) ?? []) : [];
      if (matches.length > 1) return fail(`${matches.length} ${target.noun} records match this ${key}; the row is not applied`);
      const twin = hasKey ? createdKeys.get(text) : undefined;
      if (twin !== undefined && matches.length === 0) return fail(`Same ${key} as row ${twin}, which this import creates`);
      const match = matches[0];
      if (!match) {
        if (mode === 'update')
          return { row, kind: 'report', outcome: 'skipped', message: hasKey ? `No ${target.noun} with this ${key}` : `No ${key}` };
        const parsed = target.schema.safeParse(values);
        if (!parsed.success) return fail(problemOf(parsed.error, target.labels));
        if (hasKey) createdKeys.set(text, row);
        return { row, kind: 'create', values: { ...(parsed.data as Values), ...wordpressId } };
      }
      if (mode === 'create')
        return { row, kind: 'report', outcome: 'skipped', message: `A ${target.noun} with this ${key} exists (id ${match.id})` };
      const before = target.schema.safeParse(match.values);
      const old = before.success ? (before.data as Values) : match.values;
      const parsed = target.schema.safeParse({ ...old, ...values });
      if (!parsed.success) return fail(problemOf(parsed.error, target.labels));
      const changes = changedFields(old, parsed.data as Values);
      if (Object.keys(changes).length === 0) return { row, kind: 'report', outcome: 'unchanged', message: '' };
      return { row, kind: 'update', id: match.id, before: old, values: parsed.data as Values, changes };
    });
  }

  async function writeBatch(trx: Knex.Transaction, plans: readonly Plan[], actorOfRun: HistoryActor): Promise<void> {
    const history: HistoryChange[] = [];
    const creates = plans.filter((plan): plan is Extract<Plan, { kind: 'create' }> => plan.kind === 'create');
    const ids = await target.create(trx, ctx, actor, creates);
    creates.forEach((plan, index) =>
      history.push({ entityType: target.historyType, entityId: ids[index]!, action: 'create', changes: plan.values }),
    );
    for (const plan of plans) {
      if (plan.kind !== 'update') continue;
      const changed = Object.fromEntries(Object.keys(plan.changes).map((field) => [field, plan.values[field]]));
      await target.update(trx, ctx, plan.id, changed);
      if (type === 'contact' && changed.isPrimary === true)
        await clearOtherPrimaries(trx, plan.values.entityType as ContactOwnerType, Number(plan.values.entityId), plan.id);
      history.push({
        entityType: target.historyType,
        entityId: plan.id,
        action: 'update',
        changes: plan.changes,
        record: { id: plan.id, ...plan.values },
      });
    }
    if (history.length) await recordHistory(trx, ctx, actorOfRun, history);
  }
}
