import { withTransaction } from '@db/transaction.js';
import { BulkTagsSchema } from '@shared/schemas/bulk.js';
import { normaliseTags } from '@shared/schemas/contacts.js';
import type { Actor, AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { historyActorOf, recordHistory, type HistoryChange } from '../history/service.js';
import { requireRole } from '../roles.js';
import { parseInput } from '../validate.js';
import { findContactsForUpdate } from './queries.js';
import { updateContactRow } from './writes.js';

/**
 * POST /api/contacts/bulk-tags {ids, add, remove}: adds and removes Mailchimp tags on every named contact, or on
 * none (one transaction; an unknown id refuses the whole call). Answers how many contacts changed.
 */
export async function bulkTagContacts(ctx: AppContext, actor: Actor, body: unknown): Promise<{ updated: number }> {
  requireRole(actor, 'staff');
  const { ids, add, remove } = parseInput(BulkTagsSchema, body);
  const removed = new Set(remove.map((tag) => tag.toLowerCase()));
  const updated = await withTransaction(ctx, async (trx) => {
    const contacts = await findContactsForUpdate(trx, ids);
    const found = new Set(contacts.map((contact) => contact.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw notFound(`Contact not found: ${missing.join(', ')}`);
    const entries: HistoryChange[] = [];
    for (const contact of contacts) {
      // Removal ignores case, as Mailchimp does; an added tag keeps the spelling given.
      const next = normaliseTags([...contact.mailchimpTags.filter((tag) => !removed.has(tag.toLowerCase())), ...add]);
      if (next.length === contact.mailchimpTags.length && next.every((tag, i) => tag === contact.mailchimpTags[i])) continue;
      await updateContactRow(trx, contact.id, { mailchimpTags: next, updatedAt: ctx.clock.now() });
      const changes = { mailchimpTags: { from: contact.mailchimpTags, to: next } };
      entries.push({ entityType: 'contact', entityId: contact.id, action: 'update', changes });
    }
    if (entries.length > 0) await recordHistory(trx, ctx, await historyActorOf(trx, actor), entries);
    return entries.length;
  });
  ctx.log.info({ event: 'contacts_tagged', contacts: ids.length, updated, userId: actor.userId }, 'contacts tagged in bulk');
  return { updated };
}
