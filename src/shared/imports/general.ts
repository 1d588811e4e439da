import * as z from 'zod';
import { RECORD_TYPES, type RecordType } from '../record-types.js';
import { CONTACT_FIELDS } from '../records/contact.js';
import type { FieldDef, Fields } from '../records/define.js';
import { RECORD_DEFINITIONS } from '../records/index.js';

/**
 * The general import's vocabulary (docs/decisions/0107-general-import.md), browser-safe: which types it takes, the
 * fields a column can be matched to (read from the record definitions, and src/shared/records/contact.ts), how a
 * file's header is matched to them, the modes and the keys.
 */

const GENERAL_IMPORT_TYPES = [...RECORD_TYPES, 'contact'] as const;
export type GeneralImportType = (typeof GENERAL_IMPORT_TYPES)[number];

export const IMPORT_MODES = ['create', 'update', 'upsert'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export const IMPORT_KEYS = ['id', 'wordpressId', 'name', 'email'] as const;
export type ImportKey = (typeof IMPORT_KEYS)[number];

/** The field a file's column may fill: `id` is the export's ID column, read only to find the record. */
export interface MappableField {
  name: string;
  label: string;
  /** A new record needs it (the form's required asterisk). */
  required: boolean;
  /** Every spelling that matches it: the field name, its labels, export and import headers, synonyms. */
  spellings: string[];
}

/** Lower case, letters and digits only: "E-mail", "e mail" and "EMAIL" read the same. */
const normaliseHeader = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

const ID_FIELD: MappableField = { name: 'id', label: 'ID', required: false, spellings: ['id', 'ID', 'Record ID'] };

/** A new contact needs its names and its owner (the owner type may come from the screen or the command line instead). */
const REQUIRED_CONTACT_FIELDS = new Set(['firstName', 'lastName', 'entityId']);

const WORDPRESS_ID_FIELDS: Partial<Record<RecordType, string>> = {
  event: 'wordpressEventId',
  professional: 'wordpressProfessionalId',
  runclub: 'wordpressClubId',
};

function spellingsOf(name: string, field: FieldDef): string[] {
  const all = [
    name,
    field.label,
    field.detailLabel,
    field.tableLabel,
    field.exportHeader,
    field.import?.header,
    ...(field.import?.synonyms ?? []),
  ];
  return [...new Set(all.filter((text): text is string => typeof text === 'string'))];
}

function fieldsOf(type: GeneralImportType): Fields {
  return type === 'contact' ? CONTACT_FIELDS : RECORD_DEFINITIONS[type].fields;
}

/** The fields a column can be matched to: the form's fields (those with a rule), the WordPress id, the ID. */
export function mappableFields(type: GeneralImportType): MappableField[] {
  const wordpress = type === 'contact' ? undefined : WORDPRESS_ID_FIELDS[type];
  const fields = Object.entries(fieldsOf(type))
    .filter(([name, field]) => type === 'contact' || field.rule !== undefined || name === wordpress)
    .map(([name, field]) => ({
      name,
      label: field.label,
      required: type === 'contact' ? REQUIRED_CONTACT_FIELDS.has(name) : field.rule?.type === 'name' || field.required === true,
      spellings: spellingsOf(name, field),
    }));
  return [ID_FIELD, ...fields];
}

/** The keys a type's rows can be matched by (the mode's "by" choice). */
export const importKeysOf = (type: GeneralImportType): ImportKey[] => IMPORT_KEYS.filter((key) => keyFields(type, key) !== null);

/** The field a key finds records by, per type (null when the type has no such key). */
export function keyFields(type: GeneralImportType, key: ImportKey): string[] | null {
  switch (key) {
    case 'id':
      return ['id'];
    case 'wordpressId': {
      const field = type === 'contact' ? undefined : WORDPRESS_ID_FIELDS[type];
      return field ? [field] : null;
    }
    case 'email':
      return type === 'contact' ? ['email'] : null;
    case 'name': {
      if (type === 'contact') return ['firstName', 'lastName'];
      const names = Object.entries(RECORD_DEFINITIONS[type].fields).filter(([, field]) => field.rule?.type === 'name');
      return names.map(([name]) => name);
    }
  }
}

/** A file's header matched to fields: per column, the field it fills, or null (ignored). */
export type ColumnMapping = Record<string, string | null>;

/**
 * The suggested mapping of a header: each column to the field one of whose spellings it matches (ignoring case,
 * spaces and punctuation); a field is given to its first column only.
 */
export function suggestMapping(type: GeneralImportType, header: readonly string[]): ColumnMapping {
  const bySpelling = new Map<string, string>();
  for (const field of mappableFields(type))
    for (const spelling of field.spellings)
      if (!bySpelling.has(normaliseHeader(spelling))) bySpelling.set(normaliseHeader(spelling), field.name);
  const taken = new Set<string>();
  const mapping: ColumnMapping = {};
  for (const column of header) {
    if (column in mapping) continue;
    const field = bySpelling.get(normaliseHeader(column));
    mapping[column] = field && !taken.has(field) ? field : null;
    if (field) taken.add(field);
  }
  return mapping;
}

/**
 * A mapping as given (map.json, the API's `mapping`) checked against the type: a value may name a field by its
 * name or any spelling; columns it leaves out are suggested. Answers the mapping or the first problem.
 */
export function resolveMapping(
  type: GeneralImportType,
  header: readonly string[],
  given: Readonly<Record<string, unknown>> | undefined,
): { ok: true; mapping: ColumnMapping } | { ok: false; message: string } {
  const suggested = suggestMapping(type, header);
  if (!given) return { ok: true, mapping: suggested };
  const fields = mappableFields(type);
  const mapping: ColumnMapping = {};
  for (const column of header) mapping[column] = column in given ? null : suggested[column]!;
  const used = new Map<string, string>();
  for (const [column, value] of Object.entries(given)) {
    if (!header.includes(column)) return { ok: false, message: `The mapping names a column the file does not have: ${column}` };
    if (value === null || value === '') continue;
    if (typeof value !== 'string') return { ok: false, message: `The mapping of ${column} must be a field name or null` };
    const field = fields.find((candidate) => candidate.spellings.some((spelling) => normaliseHeader(spelling) === normaliseHeader(value)));
    if (!field) return { ok: false, message: `Unknown field for ${column}: ${value}` };
    mapping[column] = field.name;
  }
  // A field the given mapping names is not also suggested for another column.
  const named = new Set(Object.keys(given).map((column) => mapping[column]));
  for (const column of header) if (!(column in given) && named.has(mapping[column]!)) mapping[column] = null;
  for (const [column, field] of Object.entries(mapping)) {
    if (field === null) continue;
    const earlier = used.get(field);
    if (earlier) return { ok: false, message: `Columns ${earlier} and ${column} are both mapped to ${field}` };
    used.set(field, column);
  }
  return { ok: true, mapping };
}

const ColumnMappingSchema = z.record(z.string(), z.string().nullable());

/** POST /api/imports/preview's answer: what the mapping step shows. */
export const ImportPreviewSchema = z.object({
  header: z.array(z.string()),
  /** Data rows (blank rows left out). */
  rowCount: z.number().int(),
  /** Per column, up to three of its first non-empty values. */
  samples: z.record(z.string(), z.array(z.string())),
  suggested: ColumnMappingSchema,
  /** The mapping of the last real import of a file with these headers, or null. */
  saved: ColumnMappingSchema.nullable(),
  fields: z.array(z.object({ name: z.string(), label: z.string(), required: z.boolean() })),
  keys: z.array(z.enum(IMPORT_KEYS)),
});
export type ImportPreview = z.output<typeof ImportPreviewSchema>;

/** What a general import job is asked (POST /api/imports' fields, checked). */
export const GeneralImportParamsSchema = z
  .object({
    type: z.enum(GENERAL_IMPORT_TYPES, { error: `type must be one of: ${GENERAL_IMPORT_TYPES.join(', ')}` }),
    mapping: ColumnMappingSchema.optional(),
    mode: z.enum(IMPORT_MODES, { error: `mode must be one of: ${IMPORT_MODES.join(', ')}` }).optional(),
    key: z.enum(IMPORT_KEYS, { error: `key must be one of: ${IMPORT_KEYS.join(', ')}` }).optional(),
    dryRun: z.boolean().optional(),
    ownerType: z.string().max(20).optional(),
    ownerColumn: z.string().max(200).optional(),
  })
  .strict();
export type GeneralImportParams = z.output<typeof GeneralImportParamsSchema>;
