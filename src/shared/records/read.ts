import { columnKindOf, type ColumnKind, type ContactColumn, type FieldDef, type RecordDef } from './define.js';

/**
 * What the surfaces read from a record definition, as functions of the definition (so a test can hand one in, and a
 * page's first load carries only its own type's definition, not the registry of ./index.ts).
 */

/** A field with its name. */
export type NamedField = FieldDef & { readonly name: string };

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
function tableFields(definition: RecordDef): NamedField[] {
  return definition.table.map((name) => named(definition, name));
}

type Direction = 'asc' | 'desc';

/** The names of the fields whose table column sorts (`table.sort`); any name for a definition typed as `RecordDef`. */
type SortableFieldOf<F> = string extends keyof F
  ? string
  : { [K in keyof F]: F[K] extends { readonly table: { readonly sort: Direction } } ? K : never }[keyof F] & string;

/**
 * A list's sort keys as literal types, read from a definition written with `defineRecord`: what `sortsOf` answers
 * (test/unit/record-definitions.test.ts holds each type's literal keys equal to the runtime ones).
 */
export type SortKeyOf<D extends { readonly fields: object }, X = object> =
  'newest' | (keyof X & string) | SortableFieldOf<D['fields']> | 'updatedAt';

/**
 * A list's sorts (src/shared/records/sorts.ts `SORTS`): newest first, then `extra` (whole orders such as upcoming),
 * the table's sortable columns in the sort menu's order, and the last update.
 */
export function sortsOf<const D extends RecordDef, const X extends Readonly<Record<string, Direction>> = Record<never, Direction>>(
  definition: D,
  extra?: X,
): Readonly<Record<SortKeyOf<D, X>, Direction>> {
  const order = definition.sorts ? definition.sorts.map((name) => named(definition, name)) : tableFields(definition);
  const table = order.flatMap((field) => (field.table?.sort ? [[field.name, field.table.sort] as const] : []));
  return { newest: 'desc', ...extra, ...Object.fromEntries(table), updatedAt: 'desc' } as Record<SortKeyOf<D, X>, Direction>;
}

/** The table's column names, and those shown until a user picks (all but the `table.hidden` ones). */
export function tableColumnsOf(definition: RecordDef): { all: string[]; shown: string[] } {
  const fields = tableFields(definition);
  return { all: fields.map((field) => field.name), shown: fields.filter((field) => !field.table?.hidden).map((field) => field.name) };
}

export const fieldOf = named;

/** How a table cell or a detail row shows a field's value, by what the field holds. */
type ValueShape = 'text' | 'multiline' | 'date' | 'timestamp' | 'money' | 'url' | 'choice' | 'choices' | 'list';

/**
 * A field as a list's table or a detail page draws it: plain data, so a page's loader hands it over with the record
 * and the browser's first load carries no definition (the budget); `labels` are a choice field's words for its values.
 */
export interface FieldFacts {
  key: string;
  label: string;
  shape: ValueShape;
  labels?: Readonly<Record<string, string>>;
}

/** A table column: its field, and its sort key where its header sorts. */
export interface TableColumnFacts extends FieldFacts {
  sort?: string;
}

/** A detail page's titled group of fields. */
export interface DetailGroupFacts {
  title: string;
  fields: FieldFacts[];
}

/** A field's value shape, from its rule, form control and stored kind. */
function valueShapeOf(field: FieldDef): ValueShape {
  const rule = field.rule;
  if (rule?.type === 'url') return 'url';
  if (rule?.type === 'enum') return 'choice';
  if (rule?.type === 'slugList' || rule?.type === 'enumList') return 'choices';
  if (field.input === 'textarea') return 'multiline';
  const kind = columnKindOf(field);
  if (kind === 'date' || kind === 'timestamp' || kind === 'list') return kind;
  if (typeof kind === 'object' && kind.kind === 'money') return 'money';
  return 'text';
}

function factsOf(field: NamedField, label: string): FieldFacts {
  const rule = field.rule;
  const labels = rule && 'labels' in rule ? rule.labels : undefined;
  return { key: field.name, label, shape: valueShapeOf(field), ...(labels ? { labels } : {}) };
}

/** The table view's columns in order: key, header, sort key (the field's name, where it sorts) and value shape. */
export function tableColumnFacts(definition: RecordDef): TableColumnFacts[] {
  return tableFields(definition).map((field) => ({
    ...factsOf(field, field.tableLabel ?? field.label),
    ...(field.table?.sort ? { sort: field.name } : {}),
  }));
}

/** The lines of a list's cards that are plain fields, in order. */
export function cardFieldFacts(definition: RecordDef): FieldFacts[] {
  return (definition.card ?? []).map((name) => {
    const field = named(definition, name);
    return factsOf(field, field.label);
  });
}

/** The detail page's field groups in order, each field under its detail label. */
export function detailGroupFacts(definition: RecordDef): DetailGroupFacts[] {
  return definition.detail.map((group) => ({
    title: group.title,
    fields: group.fields.map((name) => {
      const field = named(definition, name);
      return factsOf(field, field.detailLabel ?? field.label);
    }),
  }));
}
