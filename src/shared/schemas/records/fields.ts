import * as z from 'zod';
import { blankToNull } from '../fields.js';
import { text } from '../text.js';
import { typeSlug } from '@shared/choices.js';
import { MAX_URL_LENGTH } from '@shared/records/cells.js';

export { LOCATION_STATES } from '@shared/choices.js';

/**
 * The field builders every record type's form schema is made of, and the helpers its wire type is made with.
 * Each record definition's rules (src/shared/records/) are made of them by src/shared/records/zod.ts. Browser-safe: the forms validate with the very schemas the API parses with, so a message the browser shows is
 * the message the server would answer.
 *
 * Write semantics (docs/decisions/0010-record-field-mapping.md):
 * - POST and PUT take the same schema: the whole form. PUT REPLACES every form field; a form field that is
 *   omitted is stored as its empty value (null, [] or the field's default), never "kept as it was".
 * - Fields that are not form fields (ids, wordpress ids, sync times, galleryImages, createdAt, createdBy,
 *   updatedAt, and the payment totals totalPayments / totalAdvertisingSpend, which always equal the sum of the
 *   record's payments) are never accepted from the client (unknown keys are rejected) and PUT keeps them. The wire
 *   type of each record type adds them to its schema's output.
 * - Empty strings from form inputs mean "no value" (null) for optional fields.
 */

const MAX_LIST_ITEMS = 100;
const MAX_LIST_ITEM_LENGTH = 500;

/**
 * Fields normalise their input in a preprocess step, which zod types as `unknown`; this restores the input type
 * the browser forms should send. ZodDefault is the shape zod itself uses for "optional in, always set out".
 */
const typed = <Out, In>(schema: z.ZodType) => schema as unknown as z.ZodDefault<z.ZodType<Out, In>>;

const tooLong = (max: number) => `Must be at most ${max} characters`;

/** Required name: trimmed, not blank; the same message whether it is missing, blank or not text. */
export const requiredName = (message: string, max = 255) => text(message).trim().min(1, message).max(max, tooLong(max));

/** Optional text: '' or blank becomes null; omitted becomes null. */
export const optionalText = (max: number) =>
  typed<string | null, string | null>(
    z
      .preprocess(blankToNull, text('Must be text').trim().max(max, tooLong(max)).nullable())
      .optional()
      .transform((v) => v ?? null),
  );

export const textWithDefault = (max: number, fallback: string) =>
  typed<string, string | null>(
    z
      .preprocess(blankToNull, text('Must be text').trim().max(max, tooLong(max)).nullable())
      .optional()
      .transform((v) => v ?? fallback),
  );

/** URLs travel and are stored as text (content-site data is not always a well-formed URL). */
export const optionalUrl = () => optionalText(MAX_URL_LENGTH);

export const optionalEnum = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  typed<T[number] | null, T[number] | '' | null>(
    z
      .preprocess(blankToNull, z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` }).nullable())
      .optional()
      .transform((v) => v ?? null),
  );

export const enumWithDefault = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number], label: string) =>
  typed<T[number], T[number] | '' | null>(
    z
      .preprocess(blankToNull, z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` }).nullable())
      .optional()
      .transform((v): T[number] => v ?? fallback),
  );

export const textList = () =>
  z
    .array(text('List items must be text').trim().max(MAX_LIST_ITEM_LENGTH, tooLong(MAX_LIST_ITEM_LENGTH)), {
      error: 'Must be a list of text values',
    })
    .max(MAX_LIST_ITEMS, `At most ${MAX_LIST_ITEMS} entries`)
    .nullable()
    .optional()
    .transform((list) => (list ?? []).filter((item) => item !== ''));

/**
 * Run and track types: a list stored as slugs (src/shared/choices.ts `typeSlug`), the known choices and any value
 * the content website adds, so 'Half Marathon' and 'half-marathon' are one value.
 */
export const typeSlugList = () => textList().transform((list) => [...new Set(list.map(typeSlug).filter((item) => item !== ''))]);

export const enumList = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z
    .array(z.enum(values, { error: `${label} must be one of: ${values.join(', ')}` }), { error: 'Must be a list' })
    .max(values.length * 2)
    .nullable()
    .optional()
    .transform((list): Array<T[number]> => [...new Set(list ?? [])]);

const isRealDate = (text: string) => {
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1000 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

/** 'YYYY-MM-DD', a real calendar day. */
const DateText = text('Must be a date (YYYY-MM-DD)')
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Must be a date (YYYY-MM-DD)')
  .refine(isRealDate, 'Must be a real date (YYYY-MM-DD)');
export const optionalDate = () =>
  typed<string | null, string | null>(
    z
      .preprocess(blankToNull, DateText.nullable())
      .optional()
      .transform((v) => v ?? null),
  );

export const coordinate = (integerDigits: number, limit: number, label: string) =>
  typed<string | null, string | null>(
    z
      .preprocess(
        blankToNull,
        text(`${label} must be a decimal number`)
          .trim()
          .regex(new RegExp(`^-?\\d{1,${integerDigits}}(\\.\\d{1,8})?$`), `${label} must be a decimal number with at most 8 decimals`)
          .refine((text) => Math.abs(Number(text)) <= limit, `${label} must be between -${limit} and ${limit}`)
          .nullable(),
      )
      .optional()
      .transform((v) => v ?? null),
  );

/** A whole number, or null when empty ('' or null). Digit strings from form inputs are accepted. */
export const wholeNumber = (label: string, min: number, max: number) =>
  typed<number | null, number | string | null>(
    z
      .preprocess(
        (value) => {
          const blank = blankToNull(value);
          return typeof blank === 'string' && /^\s*\d+\s*$/.test(blank) ? Number(blank) : blank;
        },
        z
          .number({ error: `${label} must be a whole number` })
          .int(`${label} must be a whole number`)
          .min(min, `${label} must be at least ${min}`)
          .max(max, `${label} must be at most ${max}`)
          .nullable(),
      )
      .optional()
      .transform((v) => v ?? null),
  );

export const flag = () =>
  z
    .boolean({ error: 'Must be true or false' })
    .optional()
    .transform((v) => v ?? false);

/** Social handles are stored without a leading @ (spec point 3). */
export const optionalHandle = (max: number) =>
  typed<string | null, string | null>(
    z.preprocess((value) => (typeof value === 'string' ? value.trim().replace(/^@+/, '') : value), optionalText(max)),
  );

/**
 * An enum column is free text in the database: a synced post or an older row may carry another word than the
 * form offers, and the presenter answers what is stored. So a wire type takes the form's fields with every enum
 * widened to string (lists of enum words to string[]); everything else is exactly the schema's output.
 */
type Stored<V> = V extends string ? string : V extends ReadonlyArray<infer Item> ? Array<Stored<Item>> : V;
export type StoredValues<Schema extends z.ZodType> = { [Field in keyof z.output<Schema>]: Stored<z.output<Schema>[Field]> };

/** When the sync last wrote the record (each synced type also keeps its own WordPress post id column). */
export interface Synced {
  wordpressLastSync: string | null;
  /** When a sync found the record's post no longer published on the content website; null while it is. */
  wordpressUnpublishedAt: string | null;
}
