import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { dialectOfDb } from '@db/knex.js';
import type { ListQuery } from '@shared/schemas/records.js';
import { RECORD_TYPES, type RecordType } from '@shared/record-types.js';
import { fieldsForExport, recordDefinition, type RecordDef } from '@shared/records/index.js';
import type { AppContext } from '../context.js';
import { definitionOf, type RecordDefinition } from './definitions.js';
import {
  applyOrder,
  decodeRecords,
  matchingIds,
  orderOfSegment,
  positionOf,
  rowsAfter,
  type SeekPosition,
  type SortPlan,
} from './queries.js';
import { listFilterOf, sortPlanOf } from './service.js';
import { ContactsQuerySchema } from '@shared/schemas/contacts-directory.js';
import { directorySelection, presentDirectoryRows } from '../contacts/directory.js';
import { parseInput } from '../validate.js';
import { csvRecord } from './csv-writer.js';

/**
 * CSV export of a list: exactly the rows the list shows (search, filter, sort), every page, streamed from a
 * database cursor to the caller as CSV text, never gathered into an array. The columns, their order and headers are
 * the record definition's (src/shared/records/): a column the CSV import knows is named as the import names it, so
 * an exported brands file imports again as it is; events and brands carry their primary contact (else their first)
 * in the import's contact columns.
 */

type RawRow = Record<string, unknown>;
type Cell = string | number | boolean | null | undefined | readonly string[];

interface ExportColumn {
  header: string;
  cell(row: RawRow): Cell;
}

const field =
  (name: string) =>
  (row: RawRow): Cell =>
    row[name] as Cell;
const column = (header: string, name: string): ExportColumn => ({ header, cell: field(name) });
/** The contact columns, read from the joined primary contact. */
const contactColumn = (header: string, name: string): ExportColumn => ({ header, cell: field(`contact_${name}`) });
const audit = [column('Created At', 'createdAt'), column('Updated At', 'updatedAt')];
/** Last, so the columns before it stay where they were: the general import updates by it (docs/decisions/0107-general-import.md). */
const idColumn = column('ID', 'id');
/** A type's export columns from its definition (src/shared/records/): its fields and contact columns, in order. */
const columnsOf = (definition: RecordDef): ExportColumn[] => [
  ...fieldsForExport(definition).map((entry) =>
    'contact' in entry ? contactColumn(entry.header, entry.contact) : column(entry.header, entry.field.name),
  ),
  idColumn,
];

const COLUMNS = Object.fromEntries(RECORD_TYPES.map((type) => [type, columnsOf(recordDefinition(type))])) as Record<
  RecordType,
  ExportColumn[]
>;

const CONTACT_FIELDS = ['firstName', 'lastName', 'email', 'jobTitle'] as const;
const WITH_CONTACT: ReadonlySet<RecordType> = new Set(['event', 'brand']);

/**
 * A spreadsheet would run a cell starting with one of these as a formula (CSV injection), a line feed or CR before
 * a formula included: it gets a leading '.
 */
const FORMULA_START = /^[=+\-@\t\r\n]/;

/** One CSV cell: presenter values as text (lists joined, booleans yes/no), formula starts neutralised. */
function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '';
  const text = Array.isArray(value)
    ? value.join('; ')
    : typeof value === 'boolean'
      ? value
        ? 'yes'
        : 'no'
      : String(value as string | number);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * The contact each of a batch of events or brands exports with: its primary one, else its first. One lookup per batch
 * of rows on the (entityType, entityId) index, instead of a subquery per row that sorts that record's contacts.
 */
async function contactsOf(db: Knex, kind: RecordType, ids: readonly number[]): Promise<Map<number, RawRow>> {
  const rows = (await db('contacts')
    .where('entityType', kind)
    .whereIn('entityId', [...ids])
    .select('id', 'entityId', 'isPrimary', ...CONTACT_FIELDS)) as RawRow[];
  const chosen = new Map<number, RawRow>();
  const rank = (row: RawRow) => [Number(row.isPrimary) ? 0 : 1, Number(row.id)] as const;
  for (const row of rows) {
    const owner = Number(row.entityId);
    const best = chosen.get(owner);
    if (!best) chosen.set(owner, row);
    else {
      const [primary, id] = rank(row);
      const [bestPrimary, bestId] = rank(best);
      if (primary < bestPrimary || (primary === bestPrimary && id < bestId)) chosen.set(owner, row);
    }
  }
  return chosen;
}

const CONTACT_COLUMNS: ExportColumn[] = [
  column('First Name', 'firstName'),
  column('Last Name', 'lastName'),
  column('Email', 'email'),
  column('Phone', 'phone'),
  column('Job Title', 'jobTitle'),
  column('Primary', 'isPrimary'),
  column('Tags', 'mailchimpTags'),
  column('Owner Type', 'ownerType'),
  column('Owner', 'ownerName'),
  column('Notes', 'notes'),
  ...audit,
  idColumn,
];

/**
 * The list's rows in the list's order, handed on in batches: a batch is decoded at once (one decoder lookup) and
 * its contacts read in one query.
 */
async function* exportRows(
  ctx: AppContext,
  kind: RecordType,
  query: ListQuery<RecordType>,
  ids?: readonly number[],
): AsyncGenerator<RawRow[]> {
  const def = definitionOf(kind) as RecordDefinition;
  const filter = listFilterOf(kind, query);
  const matches = query.q === '' ? undefined : await matchingIds(ctx.db, def, query.q, filter.bucket);
  if (matches === null) return;
  const base = () => {
    const builder = ctx.db(`${def.table} as r`).select('r.*');
    if (matches) builder.join(matches.subquery.clone().as('m'), 'm.recordId', 'r.id');
    else filter.where?.(builder);
    if (ids) builder.whereIn('r.id', [...ids]);
    return builder;
  };
  for await (const batch of batchesInOrder(ctx.db, sortPlanOf(ctx, kind, query), base)) {
    const rows = decodeRecords<RawRow>(def, batch);
    if (WITH_CONTACT.has(kind)) {
      const contacts = await contactsOf(
        ctx.db,
        kind,
        rows.map((row) => Number(row.id)),
      );
      for (const row of rows) {
        const contact = contacts.get(Number(row.id));
        for (const name of CONTACT_FIELDS) row[`contact_${name}`] = contact?.[name] ?? null;
      }
    }
    yield rows;
  }
}

/**
 * The rows of a list order in batches. MariaDB streams each segment of the order from a server-side cursor, with
 * backpressure. Knex's SQLite driver would read the whole result before its stream's first row, so SQLite reads
 * the order a batch at a time with the list's keyset seek (the same as its Next links), each batch as cheap as the
 * first, giving the one connection back between them.
 */
async function* batchesInOrder(db: Knex, plan: SortPlan, base: () => Knex.QueryBuilder): AsyncGenerator<RawRow[]> {
  if (dialectOfDb(db) === 'mysql') {
    for (const segment of plan) {
      const builder = base();
      segment.where?.(builder);
      yield* batchesOf(applyOrder(builder, orderOfSegment(segment)).stream() as AsyncIterable<RawRow>);
    }
    return;
  }
  let from: SeekPosition | undefined;
  for (;;) {
    const read = await rowsAfter(db, plan, from, BATCH_ROWS, base);
    if (read.rows.length > 0) yield read.rows;
    if (read.rows.length < BATCH_ROWS) return;
    from = positionOf(plan, read.segments.at(-1)!, read.rows.at(-1)!);
  }
}

/** Rows per batch: per read where the database cannot stream (SQLite), per contacts lookup and per decoding. */
const BATCH_ROWS = 200;
/** Rows per piece of CSV text handed to the reader (about 16 kB for events). */
const CSV_ROWS = 100;

/** The rows of a stream in arrays of up to BATCH_ROWS. */
async function* batchesOf(source: AsyncIterable<RawRow>): AsyncGenerator<RawRow[]> {
  let batch: RawRow[] = [];
  for await (const row of source) {
    batch.push(row);
    if (batch.length === BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/** A CSV export as it streams: the bytes, and how many rows have been written so far (the header not counted). */
export interface CsvExport extends Readable {
  rowsWritten(): number;
}

/**
 * Writes batches of rows as CSV (UTF-8 with a BOM, a header row, RFC 4180 quoting: ./csv-writer.ts) as the reader
 * asks for them: the next batch is read from the database only once the reader has taken what came before.
 */
function csvOf(columns: readonly ExportColumn[], source: AsyncIterable<RawRow[]>): CsvExport {
  let written = 0;
  async function* text() {
    // The BOM makes Excel read the file as UTF-8 rather than in the system's code page.
    yield '\uFEFF' + csvRecord(columns.map((c) => c.header));
    for await (const batch of source) {
      for (let start = 0; start < batch.length; start += CSV_ROWS) {
        const part = batch.slice(start, start + CSV_ROWS);
        const piece = part.map((row) => csvRecord(columns.map((c) => csvCell(c.cell(row))))).join('');
        written += part.length;
        yield piece;
      }
    }
  }
  // A reader that goes away (a closed download) ends the generators, and with them the database read.
  return Object.assign(Readable.from(text(), { objectMode: false }), { rowsWritten: () => written });
}

/** The contacts directory's CSV: its search, filters and sort, every page (or the selected `ids`), owner named. */
export function exportContactsCsv(ctx: AppContext, input: Record<string, unknown>, ids?: readonly number[]): CsvExport {
  const query = parseInput(ContactsQuerySchema, input);
  return csvOf(
    CONTACT_COLUMNS,
    (async function* contacts() {
      const directory = await directorySelection(ctx.db, query);
      if (!directory) return;
      const base = () => {
        const builder = directory.base();
        if (ids) builder.whereIn('r.id', [...ids]);
        return builder;
      };
      for await (const batch of batchesInOrder(ctx.db, directory.plan, base)) {
        const rows = await directory.withOwners(batch.map((row) => Number(row.id)));
        yield presentDirectoryRows(rows).map(
          (contact) => ({ ...contact, ownerType: contact.owner.type, ownerName: contact.owner.name }) as unknown as RawRow,
        );
      }
    })(),
  );
}

/**
 * The CSV of a list as a byte stream (UTF-8 with a BOM, a header row, RFC 4180 quoting). `ids` narrows it to a
 * selection. The caller pipes it on; a database failure mid-way destroys the stream with that error.
 */
export function exportRecordsCsv(ctx: AppContext, kind: RecordType, query: ListQuery<RecordType>, ids?: readonly number[]): CsvExport {
  return csvOf(COLUMNS[kind], exportRows(ctx, kind, query, ids));
}
