import type { RecordType } from '../record-types.js';

/**
 * The shape of a record definition (docs/decisions/0091-record-definitions.md): one typed object per record type
 * that says, per field, everything a surface needs (its rule, how it is stored, its texts, where it shows, how it is
 * searched, imported and exported; a synced type's WordPress mapping is typed by it in ./wordpress.ts).
 * Pure data, without zod: the browser's first load carries the definitions (labels, layout) and loads the zod
 * schemas made from them (./zod.ts) only when a form is checked.
 */

type Choices = readonly [string, ...string[]];

/** What a form field accepts: each one is turned into its zod builder by ./zod.ts (src/shared/schemas/records/fields.ts). */
export type Rule =
  /** Required text, trimmed, not blank (the spec's "… is required" message). */
  | { readonly type: 'name'; readonly message: string; readonly max?: number }
  /** Optional text ('' → null), or `fallback` when empty. */
  | { readonly type: 'text'; readonly max: number; readonly fallback?: string }
  | { readonly type: 'url' }
  /** A social handle: a leading @ is dropped. */
  | { readonly type: 'handle'; readonly max: number }
  | { readonly type: 'date' }
  /** One of `values`, each read as its label; `fallback` when empty, else null. `label` names it in messages. */
  | {
      readonly type: 'enum';
      readonly values: Choices;
      readonly labels: Readonly<Record<string, string>>;
      readonly label: string;
      readonly fallback?: string;
    }
  /** A list of free text entries. */
  | { readonly type: 'list' }
  /** A list of run or track type slugs: the known ones offered, any other kept. */
  | { readonly type: 'slugList'; readonly values: Choices; readonly labels: Readonly<Record<string, string>> }
  /** A list of enum words. */
  | { readonly type: 'enumList'; readonly values: Choices; readonly labels: Readonly<Record<string, string>>; readonly label: string }
  | { readonly type: 'integer'; readonly label: string; readonly min: number; readonly max: number }
  /** A latitude (2 integer digits, ±90) or longitude (3, ±180) with up to 8 decimals. */
  | { readonly type: 'coordinate'; readonly label: 'Latitude' | 'Longitude' }
  | { readonly type: 'flag' };

/** How the database stores a value that is not plain text (src/db/codecs.ts decodes by it). */
export type ColumnKind =
  'boolean' | 'list' | 'date' | 'timestamp' | 'integer' | { readonly kind: 'money' | 'decimal'; readonly scale: number };

/** The form control a field shows as, when its rule does not say it (text and urls are inputs, enums selects…). */
type InputKind = 'email' | 'tel' | 'textarea' | 'text';

export interface FieldDef {
  /** The form's label (spec text); the surfaces below take it unless they name their own. */
  readonly label: string;
  /** The hint under the form control. */
  readonly help?: string;
  readonly placeholder?: string;
  /** The rule of a form field; a field without one is kept by the server (ids, totals, sync times). */
  readonly rule?: Rule;
  /** The stored kind where the rule does not imply it (server-kept fields). */
  readonly column?: ColumnKind;
  readonly input?: InputKind;
  /** Shows the required asterisk (a `name` rule always does). */
  readonly required?: boolean;
  /** The label on the detail page, the table header and in the history, when not `label`. */
  readonly detailLabel?: string;
  readonly tableLabel?: string;
  readonly historyLabel?: string;
  /** The table column: its sort (with the direction it starts in) and whether it is left out until a user picks it. */
  readonly table?: { readonly sort?: 'asc' | 'desc'; readonly hidden?: boolean };
  /** The CSV export's header. */
  readonly exportHeader?: string;
  /** CSV import columns: `header` as the spec's imports spell it, `synonyms` other spellings a file may use. */
  readonly import?: { readonly header: string; readonly synonyms?: readonly string[] };
  /** Two records with the same value here are likely the same one (the duplicates check). */
  readonly duplicateKey?: boolean;
  /** A value made of other fields (the influencer's full name): no column, no rule. */
  readonly computed?: true;
}

export type Fields = Readonly<Record<string, FieldDef>>;
type FieldName<F extends Fields> = keyof F & string;

/** A contact column of the events and brands CSV (their primary contact, else their first). */
export interface ContactColumn {
  readonly contact: 'firstName' | 'lastName' | 'email' | 'jobTitle';
  readonly header: string;
}

/** Per surface, which fields show and in what order (`N`: the type's field names). */
interface Layout<N extends string> {
  /** The create and edit form: every field with a rule, once. */
  readonly form: ReadonlyArray<{ readonly title?: string; readonly fields: readonly N[] }>;
  /** The detail page's field groups. */
  readonly detail: ReadonlyArray<{ readonly title: string; readonly fields: readonly N[] }>;
  /** The table view's columns in order; the list's sort keys are those with a `table.sort`, in this order. */
  readonly table: readonly N[];
  /** The lines of a card that are plain fields (a page may add others). */
  readonly card?: readonly N[];
  /** The sort menu's order of the table's sortable columns, where it is not the table's. */
  readonly sorts?: readonly N[];
  /** The CSV export's columns in order. */
  readonly export: ReadonlyArray<N | ContactColumn>;
  /** The searched fields in order; a group of fields is searched as one text (a full name). */
  readonly search: ReadonlyArray<N | readonly N[]>;
}

/** A record type's definition as the surfaces read it. */
export interface RecordDef extends Layout<string> {
  readonly type: RecordType;
  /** Declared in the input schema's order; a field with a rule is a form field (PUT replaces all of them). */
  readonly fields: Fields;
}

/** A definition as it is written: its layouts may name only its own fields. */
export interface TypedRecordDef<F extends Fields> extends Layout<FieldName<F>> {
  readonly type: RecordType;
  readonly fields: F;
}

/** Writes a definition with its field names checked: a layout that names a field the type lacks fails to compile. */
export function defineRecord<const F extends Fields>(definition: TypedRecordDef<F>): TypedRecordDef<F> {
  return definition;
}

/** The stored kind of a field: what its rule implies, or what it declares. */
export function columnKindOf(field: FieldDef): ColumnKind | undefined {
  if (field.column) return field.column;
  switch (field.rule?.type) {
    case 'date':
      return 'date';
    case 'list':
    case 'slugList':
    case 'enumList':
      return 'list';
    case 'flag':
      return 'boolean';
    case 'integer':
      return 'integer';
    case 'coordinate':
      return { kind: 'decimal', scale: 8 };
    default:
      return undefined;
  }
}

/** How a synced field is read from a post: its name in sync messages, and the choices' other spellings. */
type WordPressField<N extends string> =
  | string
  | {
      readonly label: string;
      /** The key in the post's `meta` / `acf`, when not the field's name in snake_case. */
      readonly key?: string;
      /** Other spellings a site may use for a choice ('victoria' → 'VIC'). */
      readonly aliases?: Readonly<Record<string, string>>;
      /** A value outside the choices is stored as `other`, and the site's own words in this field. */
      readonly otherColumn?: N;
    };

/**
 * Where a synced type's posts come from and which of its fields a sync writes (src/integrations/wordpress/
 * content-model.ts turns it into the sync's content model; each field is read by its rule). Fields not listed belong
 * to the CRM and a sync never writes them.
 */
export interface WordPressMapping<N extends string> {
  /** /wp-json/wp/v2/<restBase> */
  readonly restBase: string;
  /** The field holding the post id. */
  readonly idField: N;
  /** The name field, and its name in sync messages; the post title when the post has no value for it. */
  readonly name: { readonly field: N; readonly label: string };
  /** The fields a sync writes, in the order its messages name them, each with its name in those messages. */
  readonly fields: { readonly [K in N]?: WordPressField<N> };
}
