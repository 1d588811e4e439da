import { OVERFLOW_KEY, type SourceRow } from '@shared/imports/csv-records.js';
import {
  brandKey,
  cellTextProblem,
  columnSpecsOf,
  IMPORT_COLUMNS,
  importedFields,
  isEmailAddress,
  namesFromEmail,
  splitEmails,
  splitFullName,
  tidyBrandName,
  type BrandColumn,
  type ColumnIndex,
  type EventColumn,
} from '@shared/imports/rules.js';
import type { FieldDef } from '@shared/records/define.js';
import { cellValue } from '@shared/records/cells.js';
import { recordDefinition } from '@shared/records/index.js';

/**
 * What one CSV row asks for, checked in full before anything is written, so a row either applies whole or is
 * rejected with its line and reason.
 */
export interface PlannedContact {
  firstName: string;
  lastName: string;
  email: string;
  jobTitle: string | null;
}

export interface EventRowPlan {
  line: number;
  wordpressEventId: number;
  /** null leaves the event's website as it is (blank cell). */
  website: string | null;
  contacts: PlannedContact[];
}

export interface BrandRowPlan {
  line: number;
  brandName: string;
  brandKey: string;
  /** The further brand fields the file fills (src/shared/imports/rules.ts `importedFields`), null when blank. */
  values?: Record<string, string | null>;
  contacts: PlannedContact[];
}

export type RowPlan<P> = { ok: true; plan: P } | { ok: false; error: string };

/** Contact fields (records' fields take their definition's rule). */
const LIMITS = { name: 100, jobTitle: 255 } as const;
const BRAND_NAME = recordDefinition('brand').fields.brandName!;
const WEBSITE = recordDefinition('event').fields.websiteUrl!;

class RowProblem extends Error {}

const fieldName = (column: string) => column.slice('field:'.length);

const fail = (message: string): never => {
  throw new RowProblem(message);
};

/**
 * Reads a row's cells by column, trimmed ('' when the file has no such column). Every cell the plan uses passes
 * the text rule here, before any other check quotes it or it reaches the database.
 */
function cellsOf<C extends string>(row: SourceRow, columns: ColumnIndex<C>, specs: Readonly<Record<string, { name: string }>>) {
  return (column: C): string => {
    const header = columns[column];
    const cell = header === undefined ? '' : (row.values[header] ?? '').trim();
    const problem = cellTextProblem(specs[column]!.name, cell);
    return problem === null ? cell : fail(problem);
  };
}

function checkLength(label: string, value: string, max: number): string {
  if (value.length > max) fail(`${label} is longer than ${max} characters`);
  return value;
}

/** A cell as a record field's value, by the field's definition (src/shared/records/cells.ts). */
function fieldValue(field: FieldDef, header: string, cell: string): string | null {
  const read = cellValue(field, header, cell);
  return read.ok ? read.value : fail(read.problem);
}

/** "www.race.org" becomes "https://www.race.org"; anything but an http(s) address is refused. */
export function normaliseWebsite(cell: string): string | null {
  const text = cell.trim();
  if (text === '') return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return fail(`website "${text}" is not a web address`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname.includes('.'))
    fail(`website "${text}" is not a web address`);
  return fieldValue(WEBSITE, IMPORT_COLUMNS.events.website.name, withScheme);
}

function emailsOf(cell: string): string[] {
  const emails = splitEmails(cell);
  const bad = emails.find((email) => !isEmailAddress(email));
  if (bad !== undefined) fail(`"${bad}" is not an email address`);
  return emails;
}

/**
 * One contact per address. Names given by the row belong to its first address (one person per row); further
 * addresses in the same cell, and rows without names, take names derived from the address (and no job title).
 */
function contactsFor(emails: string[], given: { firstName: string; lastName: string } | null, jobTitle: string | null): PlannedContact[] {
  return emails.map((email, index) => {
    const names =
      index === 0 && given?.firstName && given.lastName ? given : mergeNames(given && index === 0 ? given : null, namesFromEmail(email));
    return {
      firstName: checkLength('First Name', names.firstName, LIMITS.name),
      lastName: checkLength('Last Name', names.lastName, LIMITS.name),
      email,
      jobTitle: index === 0 ? jobTitle : null,
    };
  });
}

function mergeNames(given: { firstName: string; lastName: string } | null, derived: { firstName: string; lastName: string }) {
  return given ? { firstName: given.firstName || derived.firstName, lastName: given.lastName || derived.lastName } : derived;
}

function overflowProblem(row: SourceRow, headerLength: number): void {
  const found = row.values[OVERFLOW_KEY];
  if (found !== undefined) fail(`has ${found} cells but the header has ${headerLength}; put quotes around cells that contain commas`);
}

function plan<P>(row: SourceRow, build: () => P): RowPlan<P> {
  try {
    return { ok: true, plan: build() };
  } catch (error) {
    if (error instanceof RowProblem) return { ok: false, error: `Line ${row.line}: ${error.message}` };
    throw error;
  }
}

export function planEventRow(row: SourceRow, columns: ColumnIndex<EventColumn>, headerLength: number): RowPlan<EventRowPlan> {
  return plan(row, () => {
    overflowProblem(row, headerLength);
    const cell = cellsOf(row, columns, IMPORT_COLUMNS.events);
    const idText = cell('eventId');
    if (!/^\d{1,10}$/.test(idText) || Number(idText) < 1 || Number(idText) > 4_294_967_295)
      fail(`event_id "${idText}" is not a whole number`);
    const website = normaliseWebsite(cell('website'));
    const emails = emailsOf(cell('email'));
    const first = cell('firstName');
    const last = cell('lastName');
    const given = first || last ? { firstName: first, lastName: last } : splitFullName(cell('fullName'));
    return { line: row.line, wordpressEventId: Number(idText), website, contacts: contactsFor(emails, given, null) };
  });
}

export function planBrandRow(row: SourceRow, columns: ColumnIndex<BrandColumn>, headerLength: number): RowPlan<BrandRowPlan> {
  return plan(row, () => {
    overflowProblem(row, headerLength);
    const cell = cellsOf(row, columns, columnSpecsOf('brands'));
    const brandName = fieldValue(BRAND_NAME, IMPORT_COLUMNS.brands.brand.name, tidyBrandName(cell('brand'))) ?? '';
    const emails = emailsOf(cell('email'));
    if (emails.length === 0) fail('Email has no address');
    const jobTitle = checkLength('Current Job', cell('jobTitle'), LIMITS.jobTitle) || null;
    const given = { firstName: cell('firstName'), lastName: cell('lastName') };
    const values = importedFields('brands')
      .filter((entry) => columns[entry.column] !== undefined)
      .map((entry) => [fieldName(entry.column), fieldValue(entry.field, entry.name, cell(entry.column))] as const);
    return {
      line: row.line,
      brandName,
      brandKey: brandKey(brandName),
      ...(values.length > 0 && { values: Object.fromEntries(values) }),
      contacts: contactsFor(emails, given.firstName || given.lastName ? given : null, jobTitle),
    };
  });
}
