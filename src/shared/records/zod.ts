import * as z from 'zod';
import {
  coordinate,
  enumList,
  enumWithDefault,
  flag,
  optionalDate,
  optionalEnum,
  optionalHandle,
  optionalText,
  optionalUrl,
  requiredName,
  textList,
  textWithDefault,
  typeSlugList,
  wholeNumber,
} from '../schemas/records/fields.js';
import type { Fields, Rule, TypedRecordDef } from './define.js';

/**
 * The zod schema of a record definition: one builder of src/shared/schemas/records/fields.ts per rule, the fields in
 * the definition's order. Kept apart from the definitions so the browser loads zod only to check a form.
 */

type Choices<R> = R extends { values: infer V extends readonly [string, ...string[]] } ? V : never;

/** The builder each rule stands for, typed, so the wire types follow the definitions. */
type ZodOfRule<R extends Rule> = R extends { type: 'name' }
  ? ReturnType<typeof requiredName>
  : R extends { type: 'text'; fallback: string }
    ? ReturnType<typeof textWithDefault>
    : R extends { type: 'text' }
      ? ReturnType<typeof optionalText>
      : R extends { type: 'url' }
        ? ReturnType<typeof optionalUrl>
        : R extends { type: 'handle' }
          ? ReturnType<typeof optionalHandle>
          : R extends { type: 'date' }
            ? ReturnType<typeof optionalDate>
            : R extends { type: 'enum'; fallback: string }
              ? ReturnType<typeof enumWithDefault<Choices<R>>>
              : R extends { type: 'enum' }
                ? ReturnType<typeof optionalEnum<Choices<R>>>
                : R extends { type: 'list' }
                  ? ReturnType<typeof textList>
                  : R extends { type: 'slugList' }
                    ? ReturnType<typeof typeSlugList>
                    : R extends { type: 'enumList' }
                      ? ReturnType<typeof enumList<Choices<R>>>
                      : R extends { type: 'integer' }
                        ? ReturnType<typeof wholeNumber>
                        : R extends { type: 'coordinate' }
                          ? ReturnType<typeof coordinate>
                          : ReturnType<typeof flag>;

/** The form fields of a definition (those with a rule) and their zod types. */
type InputShape<F extends Fields> = {
  -readonly [K in keyof F as F[K] extends { rule: Rule } ? K : never]: F[K] extends { rule: infer R extends Rule } ? ZodOfRule<R> : never;
};

/** The zod builder of one rule. */
function zodOfRule(rule: Rule): z.ZodType {
  switch (rule.type) {
    case 'name':
      return requiredName(rule.message, rule.max);
    case 'text':
      return rule.fallback === undefined ? optionalText(rule.max) : textWithDefault(rule.max, rule.fallback);
    case 'url':
      return optionalUrl();
    case 'handle':
      return optionalHandle(rule.max);
    case 'date':
      return optionalDate();
    case 'enum':
      return rule.fallback === undefined
        ? optionalEnum(rule.values, rule.label)
        : enumWithDefault(rule.values, rule.fallback as (typeof rule.values)[number], rule.label);
    case 'list':
      return textList();
    case 'slugList':
      return typeSlugList();
    case 'enumList':
      return enumList(rule.values, rule.label);
    case 'integer':
      return wholeNumber(rule.label, rule.min, rule.max);
    case 'coordinate':
      return rule.label === 'Latitude' ? coordinate(2, 90, 'Latitude') : coordinate(3, 180, 'Longitude');
    case 'flag':
      return flag();
  }
}

/** The input schema of a record type (POST and PUT): its form fields, unknown keys refused. */
export function zodSchemaOf<F extends Fields>(definition: TypedRecordDef<F>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(definition.fields)) if (field.rule) shape[name] = zodOfRule(field.rule);
  return z.strictObject(shape as InputShape<F>);
}
