import * as z from 'zod';
import { RecordInputSchemas } from '@shared/schemas/records.js';
import { AuditSchema, RecordAnswerExtras } from '@shared/schemas/wire.js';
import type { RecordType } from '@shared/record-types.js';

/** A JSON Schema (2020-12) object, as OpenAPI 3.1 takes it. */
export type JsonSchema = { [key: string]: unknown };

/**
 * A zod schema as JSON Schema 2020-12 (z.toJSONSchema): `input` for what a caller sends (a body, the query), `output`
 * for what the server answers. A transform has no JSON form; it stands for any value rather than failing.
 */
export function jsonOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Checks of what may be sent that a stored value need not pass (a synced row may carry words the form does not offer). */
const INPUT_ONLY = new Set([
  'enum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'format',
  'minimum',
  'maximum',
  'default',
]);

/** An input schema's JSON turned into the shape of stored values: types and nullability only. */
function widened(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(widened);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !INPUT_ONLY.has(key))
      .map(([key, value]) => [
        key,
        key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, widened(v)])) : widened(value),
      ]),
  );
}

/** Objects' properties merged, every property required (an answer always carries each field, null when empty). */
function mergedObject(parts: JsonSchema[]): JsonSchema {
  const properties = Object.assign({}, ...parts.map((part) => part.properties as object));
  return { type: 'object', properties, required: Object.keys(properties) };
}

/**
 * The answer of a record, contact or payment: its input schema's fields as stored, what the server keeps
 * (AuditSchema) and what the type adds (RecordAnswerExtras). Extra fields are allowed, so an answer may grow.
 */
export function storedAnswerOf(input: z.ZodType, ...extras: z.ZodType[]): JsonSchema {
  return mergedObject([
    widened(jsonOf(input, 'input')) as JsonSchema,
    jsonOf(AuditSchema, 'output'),
    ...extras.map((extra) => jsonOf(extra, 'output')),
  ]);
}

export function recordAnswerOf(type: RecordType, view: 'item' | 'detail'): JsonSchema {
  const extras = RecordAnswerExtras[type];
  return storedAnswerOf(RecordInputSchemas[type], ...(view === 'item' ? [extras.item] : [extras.item, extras.detail]));
}
