import { withTransaction } from '@db/transaction.js';
import type { Contact } from '@shared/schemas/attachments.js';
import { BulkDeleteSchema, BulkMailchimpSchema, BulkTagsSchema, type BulkMailchimpResult } from '@shared/schemas/bulk.js';
import { normaliseTags } from '@shared/schemas/contacts.js';
import type { Actor, AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { historyActorOf, recordHistory, type HistoryChange } from '../history/service.js';
import { mailchimpClient } from '../integrations/clients.js';
import { failureMessage, membersFrom, recordPushes, upsertMembers } from '../newsletter/service.js';
import { requireRole } from '../roles.js';
import { parseInput } from '../validate.js';
import { findContactsByIds } from './queries.js';
import { updateContactRow } from './writes.js';
import { deleteContactsIn } from './service.js';

/** The named contacts, every one of them: an unknown id refuses the whole call, naming it. */
function allFound(ids: readonly number[], contacts: readonly Contact[]): readonly Contact[] {
  const found = new Set(contacts.map((contact) => contact.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) throw notFound(`Contact not found: ${missing.join(', ')}`);
  return contacts;
}

/**
 * POST /api/contacts/bulk-tags {ids, add, remove}: adds and removes Mailchimp tags on every named contact, or on
 * none (one transaction; an unknown id refuses the whole call). Answers how many contacts changed.
 */
export async function bulkTagContacts(ctx: AppContext, actor: Actor, body: unknown): Promise<{ updated: number }> {
  requireRole(actor, 'staff');
  const { ids, add, remove } = parseInput(BulkTagsSchema, body);
  const removed = new Set(remove.map((tag) => tag.toLowerCase()));
  const updated = await withTransaction(ctx, async (trx) => {
    const contacts = allFound(ids, await findContactsByIds(trx, ids, { forUpdate: true }));
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

/**
 * POST /api/contacts/bulk-delete {ids}: every named contact or none, in one transaction, each through the single
 * delete (so each gets its history entry).
 */
export async function bulkDeleteContacts(ctx: AppContext, actor: Actor, body: unknown): Promise<{ deleted: number }> {
  requireRole(actor, 'staff');
  const { ids } = parseInput(BulkDeleteSchema, body);
  await withTransaction(ctx, async (trx) => {
    await deleteContactsIn(trx, ctx, actor, allFound(ids, await findContactsByIds(trx, ids, { forUpdate: true })));
  });
  ctx.log.info({ event: 'contacts_deleted', contacts: ids.length, userId: actor.userId }, 'contacts deleted in bulk');
  return { deleted: ids.length };
}

/**
 * POST /api/contacts/bulk-mailchimp {ids, audienceId}: adds the named contacts to a Mailchimp audience through the
 * member upsert the newsletter push uses (one member per address, with the contacts' tags). An address Mailchimp
 * has as unsubscribed is never re-subscribed: it counts as skipped, as does a contact without an email address.
 * Nothing of ours changes, so there is no transaction; an unknown id still refuses the call before Mailchimp is asked.
 */
export async function bulkAddToAudience(ctx: AppContext, actor: Actor, body: unknown): Promise<BulkMailchimpResult> {
  requireRole(actor, 'staff');
  const { ids, audienceId } = parseInput(BulkMailchimpSchema, body);
  const contacts = allFound(ids, await findContactsByIds(ctx.db, ids));
  const withEmail = contacts.flatMap((contact) => (contact.email?.trim() ? [{ ...contact, email: contact.email }] : []));
  const members = membersFrom(withEmail);
  const result: BulkMailchimpResult = { added: 0, updated: 0, skipped: contacts.length - withEmail.length, failed: [] };
  const outcomes = members.length > 0 ? await upsertMembers(mailchimpClient(ctx), audienceId, members) : [];
  outcomes.forEach((outcome, index) => {
    const member = members[index]!;
    const count = member.contactIds.length;
    if (outcome.status === 'rejected') {
      const message = failureMessage(outcome.reason);
      for (const id of member.contactIds) result.failed.push({ id, email: member.email, message });
    } else if (outcome.value === 'unsubscribed') result.skipped += count;
    else result[outcome.value] += count;
  });
  await recordPushes(ctx, actor, audienceId, withEmail, members, outcomes);
  ctx.log.info(
    { event: 'contacts_to_audience', audienceId, ...result, failed: result.failed.length, userId: actor.userId },
    'contacts added to a Mailchimp audience',
  );
  return result;
}
