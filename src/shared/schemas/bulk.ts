import * as z from 'zod';
import { tags } from './contacts.js';
import { audienceId } from './integrations.js';
import { MAX_BULK_IDS } from '../choices.js';
import { TRASH_TYPES } from './trash.js';

const idList = z
  .array(z.union([z.number(), z.string()]), { error: 'ids must be a list of record ids' })
  .min(1, 'ids must name at least one record')
  .max(MAX_BULK_IDS, `At most ${MAX_BULK_IDS} ids a call`)
  .transform((values, ctx) => {
    const ids = values.map((value) => (typeof value === 'number' ? value : /^\d{1,10}$/.test(value) ? Number(value) : NaN));
    if (ids.some((id) => !Number.isSafeInteger(id) || id < 1)) {
      ctx.addIssue({ code: 'custom', message: 'Each id must be a positive whole number' });
      return z.NEVER;
    }
    return [...new Set(ids)];
  });

/** A list of ids from JSON (numbers) or a URL (text), deduplicated. */
export function parseIdList(input: unknown): { ok: true; ids: number[] } | { ok: false; message: string } {
  const result = idList.safeParse(input);
  return result.success ? { ok: true, ids: result.data } : { ok: false, message: result.error.issues[0]?.message ?? 'Invalid ids' };
}

/** POST /api/{type}/bulk-delete */
export const BulkDeleteSchema = z.object({ ids: idList }).strict();

/** POST /api/deleted/undo: the records (or notes, or tasks) of one type a delete just removed, to bring back (the toast's Undo). */
export const UndoDeleteSchema = z
  .object({ type: z.enum(TRASH_TYPES, { error: `type must be one of: ${TRASH_TYPES.join(', ')}` }), ids: idList })
  .strict();

/** POST /api/contacts/bulk-tags: tags to add and to remove (typed comma separated or as lists, like a contact's). */
export const BulkTagsSchema = z
  .object({ ids: idList, add: tags, remove: tags })
  .strict()
  .refine((body) => body.add.length > 0 || body.remove.length > 0, { message: 'Name a tag to add or to remove', path: ['add'] });

/** POST /api/contacts/bulk-mailchimp: the selected contacts go to this audience. */
export const BulkMailchimpSchema = z.object({ ids: idList, audienceId }).strict();

/**
 * What adding contacts to an audience did: `added` new members, `updated` members already there, `skipped`
 * contacts left out (no email address, or the address unsubscribed from this audience: never re-subscribed), and
 * each contact Mailchimp refused, with its reason.
 */
export interface BulkMailchimpResult {
  added: number;
  updated: number;
  skipped: number;
  failed: Array<{ id: number; email: string; message: string }>;
}
