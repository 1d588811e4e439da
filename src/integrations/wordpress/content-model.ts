import { columnKindOf, type FieldDef, type RecordDef, type WordPressMapping } from '@shared/records/define.js';
import { EVENT } from '@shared/records/event.js';
import { PROFESSIONAL } from '@shared/records/professional.js';
import { RUN_CLUB } from '@shared/records/runclub.js';
import { EVENT_FROM_WORDPRESS, PROFESSIONAL_FROM_WORDPRESS, RUN_CLUB_FROM_WORDPRESS } from '@shared/records/wordpress.js';
import { RECORD_TYPE_INFO, syncedTypeOf, type RecordTypeInfo, type SyncedType, type SyncKind } from '@shared/record-types.js';

/**
 * The content model: which WordPress post type feeds which CRM table, and which post field feeds which column,
 * made from each synced type's definition and its WordPress mapping (`EVENT_FROM_WORDPRESS` and the others in
 * src/shared/records/), each field read by its rule. Fields are read from the post's `meta` (register_post_meta with
 * show_in_rest) or, when a site exposes Advanced Custom Fields instead, from `acf`, under the snake_case key of our
 * column name. A site with other names or post types changes only those mappings. Columns not listed there (notes,
 * newsletter fields, payments, subscriptions, …) belong to the CRM and a sync never writes them.
 */

type FieldType =
  | { type: 'text'; max: number }
  | { type: 'url' }
  | { type: 'email' }
  | { type: 'date' }
  | { type: 'integer'; min: number; max: number }
  | { type: 'decimal'; scale: number; limit: number }
  | { type: 'boolean' }
  | { type: 'list' }
  /** Run and track types: each value stored as its slug ('Half Marathon' → 'half-marathon'). */
  | { type: 'slugList' }
  | ({ type: 'enum'; values: readonly string[]; aliases?: Record<string, string> } & OtherValue)
  | ({ type: 'enumList'; values: readonly string[]; aliases?: Record<string, string> } & OtherValue);

/**
 * `otherColumn`: a value outside the list is stored as `other` and the site's own words go to this column (a
 * warning, not an error: nothing is lost). Without it the value is left out (an error).
 */
interface OtherValue {
  otherColumn?: string;
}

export type FieldSpec = FieldType & {
  /** The CRM column. */
  column: string;
  /** The key in `meta` / `acf`; defaults to the column name in snake_case. */
  key?: string;
  /** How the field is named in sync messages. */
  label: string;
};

export interface PostTypeModel {
  kind: SyncKind;
  /** Singular, for messages: "Event 'Harbour Half' (WordPress id 12): …". */
  noun: string;
  /** Plural, for the summary message. */
  plural: string;
  /** /wp-json/wp/v2/<restBase> */
  restBase: string;
  table: RecordTypeInfo<SyncedType>['table'];
  recordType: SyncedType;
  /** The unique column holding the WordPress post id. */
  idColumn: 'wordpressEventId' | 'wordpressProfessionalId' | 'wordpressClubId';
  /** The name column; when its field is empty the post title is the name. */
  name: FieldSpec & { type: 'text' };
  fields: FieldSpec[];
}

/** What a post type model takes from the shared vocabulary: "Run club 'Dawn Patrol' …", "3 run clubs read". */
function vocabulary(kind: SyncKind) {
  const recordType = syncedTypeOf(kind);
  const { noun, pluralNoun, table } = RECORD_TYPE_INFO[recordType];
  return { kind, noun: noun.charAt(0).toUpperCase() + noun.slice(1), plural: pluralNoun, table, recordType };
}

/** How a sync reads a field from a post, by the field's rule (a form and a sync accept the same values). */
function fieldTypeOf(name: string, field: FieldDef, read: Exclude<WordPressField, string>): FieldType {
  const choices = {
    ...(read.aliases ? { aliases: { ...read.aliases } } : {}),
    ...(read.otherColumn ? { otherColumn: read.otherColumn } : {}),
  };
  if (field.input === 'email') return { type: 'email' };
  const rule = field.rule;
  switch (rule?.type) {
    case 'name':
      return { type: 'text', max: rule.max ?? 255 };
    case 'text':
    case 'handle':
      return { type: 'text', max: rule.max };
    case 'url':
    case 'date':
    case 'list':
    case 'slugList':
      return { type: rule.type };
    case 'flag':
      return { type: 'boolean' };
    case 'integer':
      return { type: 'integer', min: rule.min, max: rule.max };
    case 'coordinate':
      return { type: 'decimal', scale: 8, limit: rule.label === 'Latitude' ? 90 : 180 };
    case 'enum':
    case 'enumList':
      return { type: rule.type, values: rule.values, ...choices };
    case undefined:
      if (columnKindOf(field) === 'list') return { type: 'list' };
  }
  throw new Error(`The WordPress mapping names ${name}, which a sync cannot read by its rule`);
}

type WordPressField = WordPressMapping<string>['fields'][string] & {};

/** A synced type's content model, from its definition and its WordPress mapping (src/shared/records/). */
function modelOf(kind: SyncKind, definition: RecordDef, mapping: WordPressMapping<string>): PostTypeModel {
  const spec = (name: string, entry: WordPressField): FieldSpec => {
    const read = typeof entry === 'string' ? { label: entry } : entry;
    return {
      column: name,
      ...(read.key ? { key: read.key } : {}),
      label: read.label,
      ...fieldTypeOf(name, definition.fields[name]!, read),
    };
  };
  const name = spec(mapping.name.field, mapping.name.label);
  if (name.type !== 'text') throw new Error(`The WordPress name field of ${kind} is not text`);
  return {
    ...vocabulary(kind),
    restBase: mapping.restBase,
    idColumn: mapping.idField as PostTypeModel['idColumn'],
    name,
    fields: Object.entries(mapping.fields).map(([field, entry]) => spec(field, entry!)),
  };
}

export const CONTENT_MODEL: Record<SyncKind, PostTypeModel> = {
  events: modelOf('events', EVENT, EVENT_FROM_WORDPRESS),
  professionals: modelOf('professionals', PROFESSIONAL, PROFESSIONAL_FROM_WORDPRESS),
  runclubs: modelOf('runclubs', RUN_CLUB, RUN_CLUB_FROM_WORDPRESS),
};

/** eventStartDate → event_start_date */
export function snakeCase(column: string): string {
  return column.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

export const fieldKey = (field: FieldSpec) => field.key ?? snakeCase(field.column);

/** Every column a sync of this post type writes from the post: the fields' own and their `otherColumn`s. */
export function syncedColumns(model: PostTypeModel): string[] {
  return model.fields.flatMap((field) =>
    (field.type === 'enum' || field.type === 'enumList') && field.otherColumn ? [field.column, field.otherColumn] : [field.column],
  );
}
