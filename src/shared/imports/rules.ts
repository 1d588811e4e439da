import { invalidCharacterIn, isStorableText } from '../storable-text.js';
import type { FieldDef } from '../records/define.js';
import { BRAND } from '../records/brand.js';
import { EVENT } from '../records/event.js';
import { duplicateKeys, fieldsForImport, type ImportField } from '../records/read.js';

/**
 * The import rules both entry points share (the screens and `pacer import`): which columns a file needs, how a
 * header cell is matched, how an email cell is split, how a name is derived from an address and how brand names
 * are compared. Browser-safe on purpose: the import screens run the very same checks before sending anything.
 */

export type ImportKind = 'events' | 'brands';

/** Spec points 5 and 8, word for word. */
export const IMPORT_MESSAGES = {
  tooShort: 'CSV must have at least a header row and one data row',
  missingColumn: (column: string) => `Missing required column: ${column}`,
  missingEmailColumn: 'Missing email column. Expected: Email or Emails',
  events: {
    noDataTitle: 'No data provided',
    noData: 'Please paste your CSV data',
    noValidRowsTitle: 'No valid data',
    noValidRows: 'No valid rows found in CSV data',
    parseError: 'Invalid CSV format',
  },
  brands: {
    noData: 'Please enter CSV data',
    noValidRows: 'No valid data found in CSV',
    parseError: 'CSV parsing error',
  },
} as const;

export function noDataMessage(kind: ImportKind): string {
  return kind === 'events' ? IMPORT_MESSAGES.events.noData : IMPORT_MESSAGES.brands.noData;
}

export function noValidRowsMessage(kind: ImportKind): string {
  return kind === 'events' ? IMPORT_MESSAGES.events.noValidRows : IMPORT_MESSAGES.brands.noValidRows;
}

export function parseErrorMessage(kind: ImportKind): string {
  return kind === 'events' ? IMPORT_MESSAGES.events.parseError : IMPORT_MESSAGES.brands.parseError;
}

/**
 * Header cells are compared without case, spaces, underscores or dashes, so "Event ID", "event_id" and
 * "EventId" all name the same column; messages use the spec's spelling.
 */
export function headerKey(cell: string): string {
  return cell
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, '');
}

interface ColumnSpec {
  /** The spelling used in messages and in the sample. */
  name: string;
  keys: readonly string[];
  required: boolean;
}

const col = (name: string, required: boolean, ...aliases: string[]): ColumnSpec => ({
  name,
  keys: [headerKey(name), ...aliases.map(headerKey)],
  required,
});

/** A record field's column: the header and synonyms of its definition (src/shared/records/). */
const fieldColumn = (field: ImportField, required: boolean) => col(field.header, required, ...field.synonyms);
const importFieldOf = (fields: readonly ImportField[], name: string): ImportField => {
  const found = fields.find((entry) => entry.field.name === name);
  if (!found) throw new Error(`No import column for ${name}`);
  return found;
};
const BRAND_IMPORT = fieldsForImport(BRAND);
const EVENT_IMPORT = fieldsForImport(EVENT);

/** Columns per import. Email is checked separately because either of two names satisfies it (events). */
export const IMPORT_COLUMNS = {
  events: {
    eventId: fieldColumn(importFieldOf(EVENT_IMPORT, 'wordpressEventId'), true),
    website: fieldColumn(importFieldOf(EVENT_IMPORT, 'websiteUrl'), true),
    email: col('Email', true, 'Emails'),
    firstName: col('First Name', false),
    lastName: col('Last Name', false),
    fullName: col('Name', false, 'Contact Name', 'Full Name'),
  },
  brands: {
    brand: fieldColumn(importFieldOf(BRAND_IMPORT, 'brandName'), true),
    firstName: col('First Name', true),
    lastName: col('Last Name', true),
    email: col('Email', true, 'Emails'),
    jobTitle: col('Current Job', false, 'Job Title'),
  },
} as const;

/** A record field an import fills besides its key, by its name: `field:instagramHandle`. */
export type FieldColumn = `field:${string}`;
export type EventColumn = keyof typeof IMPORT_COLUMNS.events | FieldColumn;
export type BrandColumn = keyof typeof IMPORT_COLUMNS.brands | FieldColumn;

/**
 * The further record fields an import fills (the fields its record definition gives an import header, but the
 * key it matches by), each optional: a new record takes their cells.
 */
function fieldColumnsOf(kind: ImportKind): Array<{ column: FieldColumn; spec: ColumnSpec; field: FieldDef & { name: string } }> {
  if (kind !== 'brands') return [];
  const keys = duplicateKeys(BRAND);
  return BRAND_IMPORT.filter((entry) => !keys.includes(entry.field.name)).map((entry) => ({
    column: `field:${entry.field.name}`,
    spec: fieldColumn(entry, false),
    field: entry.field,
  }));
}

/** The columns an import reads: its own, then the record fields of `fieldColumnsOf`. */
export function columnSpecsOf(kind: ImportKind): Record<string, ColumnSpec> {
  return { ...IMPORT_COLUMNS[kind], ...Object.fromEntries(fieldColumnsOf(kind).map((entry) => [entry.column, entry.spec])) };
}

/** The record fields an import fills from the columns a file has: the field, and the column that holds it. */
export function importedFields(kind: ImportKind): Array<{ column: FieldColumn; name: string; field: FieldDef }> {
  return fieldColumnsOf(kind).map((entry) => ({ column: entry.column, name: entry.spec.name, field: entry.field }));
}

/** Where each known column sits in a header (the first matching cell wins); unknown cells are ignored. */
export type ColumnIndex<C extends string> = Partial<Record<C, string>>;

/**
 * Checks a header against an import's columns and maps each known column to the header cell holding it.
 * Returns the first spec message when a required column is missing.
 */
export function resolveColumns<K extends ImportKind>(
  kind: K,
  header: readonly string[],
): { ok: true; columns: ColumnIndex<K extends 'events' ? EventColumn : BrandColumn> } | { ok: false; message: string } {
  const specs = columnSpecsOf(kind);
  const byKey = new Map<string, string>();
  for (const cell of header) {
    const key = headerKey(cell);
    if (key && !byKey.has(key)) byKey.set(key, cell);
  }
  const columns: Record<string, string> = {};
  for (const [column, spec] of Object.entries(specs)) {
    const cell = spec.keys.map((key) => byKey.get(key)).find((found) => found !== undefined);
    if (cell !== undefined) columns[column] = cell;
    else if (spec.required) {
      return {
        ok: false,
        message: column === 'email' && kind === 'events' ? IMPORT_MESSAGES.missingEmailColumn : IMPORT_MESSAGES.missingColumn(spec.name),
      };
    }
  }
  return { ok: true, columns: columns as ColumnIndex<K extends 'events' ? EventColumn : BrandColumn> };
}

/** A row is dropped (not an error) when the column that says what it is about is blank (spec point 5). */
export function isDroppedRow(
  kind: ImportKind,
  row: Readonly<Record<string, string>>,
  columns: Readonly<Record<string, string | undefined>>,
): boolean {
  const cell = (column: string) => {
    const header = columns[column];
    return header === undefined ? '' : (row[header] ?? '').trim();
  };
  return kind === 'events' ? cell('eventId') === '' : cell('brand') === '' || cell('email') === '';
}

/**
 * The text rule (src/shared/schemas/text.ts) for one cell: a lone surrogate or a NUL cannot be stored as written,
 * so the row is refused, naming the column as the spec spells it. Null when the cell is fine.
 */
export function cellTextProblem(columnName: string, cell: string): string | null {
  return isStorableText(cell) ? null : invalidCharacterIn(columnName);
}

/** Several addresses may share a cell, separated by commas, semicolons or whitespace. */
export function splitEmails(cell: string): string[] {
  return cell
    .split(/[,;\s]+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

const EMAIL = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;
const MAX_EMAIL_LENGTH = 320;

export function isEmailAddress(value: string): boolean {
  return value.length <= MAX_EMAIL_LENGTH && EMAIL.test(value);
}

function capitalise(word: string): string {
  return word ? word.charAt(0).toUpperCase() + word.slice(1).toLowerCase() : word;
}

/**
 * A contact's name when the file gives none (docs/decisions/0030-csv-import-engine.md): the part before the @ is
 * split on dots, underscores, dashes and plus signs, digits are dropped, and each part capitalised.
 * "jane.doe@x.org" → Jane / Doe; "mary-ann.van.dyke@x" → Mary / Ann Van Dyke. A single word gives the first name,
 * and the last name becomes the capitalised first label of the domain, so "info@parkrun.com" → Info / Parkrun
 * (last names are required, and the organisation is the most useful stand-in).
 */
export function namesFromEmail(email: string): { firstName: string; lastName: string } {
  const at = email.lastIndexOf('@');
  const local = at === -1 ? email : email.slice(0, at);
  const domain = at === -1 ? '' : email.slice(at + 1);
  const words = local
    .split(/[._+-]+/)
    .map((word) => word.replace(/\d+/g, ''))
    .filter(Boolean)
    .map(capitalise);
  const domainLabel = capitalise(domain.split('.')[0] ?? '');
  if (words.length === 0) return { firstName: capitalise(local) || 'Contact', lastName: domainLabel || 'Contact' };
  if (words.length === 1) return { firstName: words[0]!, lastName: domainLabel || words[0]! };
  return { firstName: words[0]!, lastName: words.slice(1).join(' ') };
}

/** "Jane van Dyke" → Jane / van Dyke: the first word is the first name, the rest the last name. */
export function splitFullName(full: string): { firstName: string; lastName: string } | null {
  const words = full.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  if (words.length === 1) return { firstName: words[0]!, lastName: '' };
  return { firstName: words[0]!, lastName: words.slice(1).join(' ') };
}

/** Brands match by name without case or spaces: " Brooks  Running" and "brooksrunning" are one brand. */
export function brandKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

/** The name a new brand is stored under: the file's spelling with runs of spaces collapsed. */
export function tidyBrandName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

/** An example file for each import, shown on the screens and in `pacer import --help`. */
export const IMPORT_SAMPLES: Record<ImportKind, string> = {
  events: [
    'event_id,website,Email',
    '1234,https://cityrun.example.org,"race@cityrun.example.org, entries@cityrun.example.org"',
    '5678,https://trailfest.example.org,info@trailfest.example.org',
  ].join('\n'),
  brands: [
    'Brand,First Name,Last Name,Email,Current Job',
    '"Fleet Feet, Inc.",Jane,Doe,jane.doe@fleetfeet.example.com,Marketing Manager',
    'Brooks Running,John,Smith,john@brooks.example.com,Partnerships Lead',
  ].join('\n'),
};
