import * as z from 'zod';
import { RECORD_TYPE_INFO, RECORD_TYPES, type RecordType } from '../record-types.js';

/**
 * Duplicates and merge (issue 34; docs/decisions/0108-duplicates-and-merge.md): what `/api/duplicates`, the dismissal
 * and `/api/merge` take and answer. The type is named as in the URLs: a list's segment ("events", "runclubs") or
 * "contacts".
 */
const DUPLICATE_TYPES: [string, ...string[]] = ['contacts', ...RECORD_TYPES.map((type) => RECORD_TYPE_INFO[type].segment)];

/** The record type a duplicates URL names, or 'contact'. */
export function duplicateKindOf(name: string): RecordType | 'contact' | undefined {
  if (name === 'contacts') return 'contact';
  return RECORD_TYPES.find((type) => RECORD_TYPE_INFO[type].segment === name);
}

const typeName = z.enum(DUPLICATE_TYPES, { error: `type must be one of ${DUPLICATE_TYPES.join(', ')}` });
const recordId = (what: string) =>
  z.coerce
    .number({ error: `${what} must be a record id` })
    .int(`${what} must be a record id`)
    .positive(`${what} must be a record id`)
    .max(4_294_967_295, `${what} must be a record id`);

/** GET /api/duplicates?type=&cursor=&limit= */
export const DuplicatesQuerySchema = z.object({
  type: typeName,
  cursor: z
    .string()
    .regex(/^\d{1,10}:\d{1,10}$/, 'cursor must be the nextCursor of the previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** One side of a pair: the record's id and the name a list shows. */
const DuplicateSideSchema = z.object({ id: z.number().int(), name: z.string() });

const DuplicatePairSchema = z.object({
  a: z.number().int(),
  b: z.number().int(),
  score: z.number(),
  reasons: z.array(z.string()),
  /** The two records' names, as the list shows them. */
  records: z.tuple([DuplicateSideSchema, DuplicateSideSchema]),
});
export type DuplicatePair = z.infer<typeof DuplicatePairSchema>;

export const DuplicatePageSchema = z.object({ items: z.array(DuplicatePairSchema), nextCursor: z.string().nullable() });
export type DuplicatePage = z.infer<typeof DuplicatePageSchema>;

/** POST /api/duplicates/dismiss: "not a duplicate". */
export const DismissSchema = z.object({ type: typeName, a: recordId('a'), b: recordId('b') }).strict();

/** GET /api/duplicates/check?type=&name=… (the add form's notice): the existing records a new one would match. */
export const MatchSchema = z.object({ id: z.number().int(), name: z.string(), score: z.number(), reasons: z.array(z.string()) });
export type DuplicateMatch = z.infer<typeof MatchSchema>;

/** POST /api/merge */
export const MergeSchema = z
  .object({
    type: typeName,
    keepId: recordId('keepId'),
    mergeId: recordId('mergeId'),
    fields: z.record(z.string(), z.enum(['keep', 'merge'], { error: "each field must be 'keep' or 'merge'" })).default({}),
  })
  .strict();

/** The merge screen: each field's value on both records and which one is kept by default. */
export const MergePreviewSchema = z.object({
  type: typeName,
  keep: DuplicateSideSchema,
  merge: DuplicateSideSchema,
  fields: z.array(z.object({ field: z.string(), keep: z.unknown(), merge: z.unknown(), choice: z.enum(['keep', 'merge']) })),
  /** Why the merge would be refused as it stands (two synced records, the synced one merged away), else null. */
  refusal: z.string().nullable(),
});
export type MergePreview = z.infer<typeof MergePreviewSchema>;

export const MergeResultSchema = z.object({
  keepId: z.number().int(),
  mergeId: z.number().int(),
  moved: z.record(z.string(), z.number().int()),
  /** The Recently deleted entry that undoes the merge (null for contacts, whose merge is final). */
  deletedItemId: z.number().int().nullable(),
});
export type MergeResult = z.infer<typeof MergeResultSchema>;
