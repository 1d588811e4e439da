import fc from 'fast-check';
import type { z } from 'zod';
import { anyJson, textJson, type IdOwner, type Json } from './values.js';

/**
 * Bodies are derived loosely from the real zod schemas: the field names come from the schema's shape and each
 * field's "plausible" values from what its definition contains (enum words, number / boolean / list), so a field
 * added to a schema is fuzzed without touching this file. Only zod's public-ish `_zod.def` tree is read.
 */

export interface FieldHints {
  enums: string[];
  kinds: Set<'string' | 'number' | 'boolean' | 'array'>;
  elementEnums: string[];
}

interface DefNode {
  type?: string;
  entries?: Record<string, unknown>;
  innerType?: unknown;
  in?: unknown;
  out?: unknown;
  element?: unknown;
  options?: unknown[];
  schema?: unknown;
}

const defOf = (schema: unknown): DefNode | undefined => (schema as { _zod?: { def?: DefNode } } | undefined)?._zod?.def;

export function hintsOf(schema: unknown): FieldHints {
  const hints: FieldHints = { enums: [], kinds: new Set(), elementEnums: [] };
  const visit = (node: unknown, inArray: boolean, depth: number) => {
    const def = defOf(node);
    if (!def || depth > 12) return;
    if (def.type === 'enum' && def.entries) (inArray ? hints.elementEnums : hints.enums).push(...Object.values(def.entries).map(String));
    if (!inArray && (def.type === 'string' || def.type === 'number' || def.type === 'boolean' || def.type === 'array'))
      hints.kinds.add(def.type);
    for (const child of [def.innerType, def.in, def.out, def.schema]) if (child) visit(child, inArray, depth + 1);
    if (def.element) visit(def.element, true, depth + 1);
    for (const option of def.options ?? []) visit(option, inArray, depth + 1);
  };
  visit(schema, false, 0);
  return hints;
}

/** The fields of an object schema (refinements keep the shape in zod 4). */
export function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) throw new Error('Not an object schema: the fuzzer cannot derive its fields');
  return shape;
}

const OWNER_OF_FIELD: Record<string, IdOwner | 'owner'> = { entityId: 'owner', eventId: 'event' };

/** Values a real client could send for a field: what its name and definition suggest. */
export function plausibleValue(name: string, hints: FieldHints): fc.Arbitrary<Json> {
  const options: Array<fc.Arbitrary<Json>> = [];
  const s = (...values: string[]) => fc.constantFrom(...values).map((v): Json => ({ s: v }));
  if (hints.enums.length) options.push(s(...hints.enums));
  if (hints.elementEnums.length) options.push(fc.subarray(hints.elementEnums).map((items): Json => ({ a: items.map((v) => ({ s: v })) })));
  const owner = OWNER_OF_FIELD[name];
  if (owner) options.push(fc.record({ pick: fc.nat(20), text: fc.boolean() }).map(({ pick, text }): Json => ({ id: owner, pick, text })));
  if (/date|inclusion$/i.test(name)) options.push(s('2026-05-01', '2024-02-29', '1999-12-31', ''));
  if (/url$/i.test(name)) options.push(s('https://example.org/page', 'example.org', ''));
  if (/lat$/i.test(name)) options.push(s('-33.8688', '0', '90', '-90.5', ''));
  if (/lng$/i.test(name)) options.push(s('151.2093', '-180', '180.00000001', ''));
  if (/email/i.test(name)) options.push(s('someone@example.org', 'SOMEONE@Example.ORG', 'not-an-email', ''));
  if (/amount/i.test(name))
    options.push(
      s('12.50', '0', '99999999.99', '1.234'),
      fc.constantFrom('12.5', '0', '-1').map((n): Json => ({ n })),
    );
  if (/handle/i.test(name)) options.push(s('@runner', 'runner', '@@@'));
  if (/tags/i.test(name)) options.push(s('a, b, a', 'vip'), fc.constant<Json>({ a: [{ s: 'vip' }, { s: 'a,b' }] }));
  if (/year|count|attendance/i.test(name))
    options.push(
      fc.integer({ min: -5, max: 3000 }).map((n): Json => ({ n: String(n) })),
      s('1990', ' 12 '),
    );
  if (hints.kinds.has('boolean')) options.push(fc.boolean().map((b): Json => ({ b })));
  if (hints.kinds.has('number') && !owner) options.push(fc.integer({ min: -1, max: 5000 }).map((n): Json => ({ n: String(n) })));
  if (hints.kinds.has('array') && !hints.elementEnums.length)
    options.push(
      fc.array(fc.constantFrom('5k', '10k', 'Trail', ''), { maxLength: 4 }).map((items): Json => ({ a: items.map((v) => ({ s: v })) })),
    );
  if (hints.kinds.has('string') || options.length === 0)
    options.push(fc.constantFrom('Fuzz value', 'Éclair café', 'x').map((v): Json => ({ s: v })));
  return fc.oneof(...options);
}

/** A value for a field: usually plausible, sometimes anything (wrong type, huge, broken text). */
export function fieldValue(name: string, hints: FieldHints): fc.Arbitrary<Json> {
  return fc.oneof(
    { weight: 6, arbitrary: plausibleValue(name, hints) },
    { weight: 2, arbitrary: textJson },
    { weight: 1, arbitrary: anyJson },
  );
}
