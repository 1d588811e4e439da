import type { RecordType } from '../record-types.js';
import { BRAND } from './brand.js';
import { EVENT } from './event.js';
import { INFLUENCER } from './influencer.js';
import { MEDIA } from './media.js';
import { PROFESSIONAL } from './professional.js';
import { RUN_CLUB } from './runclub.js';
import {
  columnKindOf,
  type ColumnKind,
  type ContactColumn,
  type FieldDef,
  type Fields,
  type RecordDef,
  type TypedRecordDef,
} from './define.js';

/**
 * The record definitions by type, and what the surfaces read from them (docs/conventions.md "Record definitions").
 * Browser-safe and without zod: `zodSchemaOf` (./zod.ts) makes a type's input schema.
 */

export type { RecordDef, ColumnKind } from './define.js';

export const RECORD_DEFINITIONS = {
  event: EVENT,
  professional: PROFESSIONAL,
  runclub: RUN_CLUB,
  brand: BRAND,
  media: MEDIA,
  influencer: INFLUENCER,
} satisfies Record<RecordType, RecordDef>;

type Defined = keyof typeof RECORD_DEFINITIONS;

/** A field with its name. */
export type NamedField = FieldDef & { readonly name: string };

export function recordDefinition<K extends Defined>(type: K): (typeof RECORD_DEFINITIONS)[K] {
  return RECORD_DEFINITIONS[type];
}

const named = (definition: RecordDef, name: string): NamedField => ({ name, ...definition.fields[name]! });

/** @public Every field of a type, in the definition's order (form fields in the schema's order). */
export function recordFields(definition: RecordDef): NamedField[] {
  return Object.keys(definition.fields).map((name) => named(definition, name));
}

/** The CSV export's columns in order: a field (with its header) or a contact column. */
export type ExportField = { header: string } & ({ field: NamedField } | ContactColumn);

export function fieldsForExport(definition: RecordDef): ExportField[] {
  return definition.export.map((entry) => {
    if (typeof entry !== 'string') return entry;
    const field = named(definition, entry);
    return { header: field.exportHeader ?? field.import?.header ?? field.label, field };
  });
}

/** A column a CSV import reads into a field: the header the spec's import spells, then other spellings. */
export interface ImportField {
  field: NamedField;
  header: string;
  synonyms: readonly string[];
}

export function fieldsForImport(definition: RecordDef): ImportField[] {
  return recordFields(definition).flatMap((field) =>
    field.import ? [{ field, header: field.import.header, synonyms: field.import.synonyms ?? [] }] : [],
  );
}

/** The fields two records are likely the same one by. */
export function duplicateKeys(definition: RecordDef): string[] {
  return recordFields(definition)
    .filter((field) => field.duplicateKey)
    .map((field) => field.name);
}

/** How each stored field is decoded (src/db/columns.ts). */
export function columnKindsOf(definition: RecordDef): Record<string, ColumnKind> {
  const kinds: Record<string, ColumnKind> = {};
  for (const field of recordFields(definition)) {
    const kind = columnKindOf(field);
    if (kind) kinds[field.name] = kind;
  }
  return kinds;
}

/** The columns the search text is made of, and the text's fields in order (a group joined by spaces: a full name). */
export function searchOf(definition: RecordDef): { columns: string[]; fields: ReadonlyArray<string | readonly string[]> } {
  return { columns: definition.search.flat(), fields: definition.search };
}

/** The table's columns: each field, its header, and whether it shows before a user picks. */
export function tableFields(definition: RecordDef): NamedField[] {
  return definition.table.map((name) => named(definition, name));
}

/** The sort keys a definition's table gives, each with the direction it starts in. */
type TableSorts<F extends Fields> = {
  -readonly [K in keyof F as F[K] extends { table: { sort: 'asc' | 'desc' } } ? K : never]: F[K] extends {
    table: { sort: infer D extends 'asc' | 'desc' };
  }
    ? D
    : never;
};

/**
 * A list's sorts (src/shared/list-options.ts `SORTS`): newest first, then `extra` (whole orders such as upcoming),
 * the table's sortable columns in the table's order, and the last update.
 */
export function sortsOf<F extends Fields, const E extends Record<string, 'asc' | 'desc'> = Record<never, never>>(
  definition: TypedRecordDef<F>,
  extra?: E,
): { newest: 'desc' } & E & TableSorts<F> & { updatedAt: 'desc' } {
  const order = definition.sorts ? definition.sorts.map((name) => named(definition, name)) : tableFields(definition);
  const table = order.flatMap((field) => (field.table?.sort ? [[field.name, field.table.sort] as const] : []));
  return { newest: 'desc', ...extra, ...Object.fromEntries(table), updatedAt: 'desc' } as { newest: 'desc' } & E &
    TableSorts<F> & { updatedAt: 'desc' };
}

/** The table's column names, and those shown until a user picks (all but the `table.hidden` ones). */
export function tableColumnsOf(definition: RecordDef): { all: string[]; shown: string[] } {
  const fields = tableFields(definition);
  return { all: fields.map((field) => field.name), shown: fields.filter((field) => !field.table?.hidden).map((field) => field.name) };
}

export const fieldOf = named;

/** The history's field labels a type's definition sets (`historyLabel`); the others are worded from the field name. */
export function historyLabelsOf(type: RecordType): Readonly<Record<string, string>> {
  const definition: RecordDef = RECORD_DEFINITIONS[type];
  return Object.fromEntries(recordFields(definition).flatMap((field) => (field.historyLabel ? [[field.name, field.historyLabel]] : [])));
}
