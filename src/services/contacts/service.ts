import type { Knex } from 'knex';
import type { Contact } from '@shared/schemas/attachments.js';
import { withTransaction } from '@db/transaction.js';
import { ContactInputSchema } from '@shared/schemas/contacts.js';
import { assertOwnerExists, lockOwner, mergeOver, ownersInLockOrder } from '../attachments/owners.js';
import type { ContactOwnerType } from '@shared/record-types.js';
import type { Actor, AppContext } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { changedFields, historyActorOf, recordHistory, type HistoryChange } from '../history/service.js';
import { requireRole } from '../roles.js';
import { assertVersion, takeVersion } from '../versions.js';
import { parseInput } from '../validate.js';
import { findContact, listContactsOf } from './queries.js';
import { clearOtherPrimaries, deleteContactRows, insertContact, updateContactRow } from './writes.js';

export async function getContact(ctx: AppContext, id: number): Promise<Contact> {
  const contact = await findContact(ctx.db, id);
  if (!contact) throw notFound('Contact not found');
  return contact;
}

export async function listContacts(ctx: AppContext, entityType: ContactOwnerType, entityId: number): Promise<Contact[]> {
  await assertOwnerExists(ctx.db, entityType, entityId);
  return listContactsOf(ctx.db, entityType, entityId);
}

export async function createContact(ctx: AppContext, actor: Actor, body: unknown): Promise<Contact> {
  requireRole(actor, 'staff');
  const input = parseInput(ContactInputSchema, body);
  const now = ctx.clock.now();
  const id = await withTransaction(ctx, async (trx) => {
    await lockOwner(trx, input.entityType, input.entityId);
    const newId = await insertContact(trx, { ...input, createdAt: now, updatedAt: now, createdBy: actor.userId });
    if (input.isPrimary) await clearOtherPrimaries(trx, input.entityType, input.entityId, newId);
    await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
      { entityType: 'contact', entityId: newId, action: 'create', changes: input },
    ]);
    return newId;
  });
  ctx.log.info({ event: 'contact_created', contactId: id, owner: `${input.entityType}:${input.entityId}` }, 'contact created');
  return getContact(ctx, id);
}

/**
 * PUT sends the contact's fields; any left out keep their stored value, and the result is validated whole. The
 * first read decides which owners to lock; the merge is redone under the lock.
 */
export async function updateContact(ctx: AppContext, actor: Actor, id: number, body: unknown): Promise<Contact> {
  requireRole(actor, 'staff');
  const { version, body: fields } = takeVersion(body);
  const existing = await getContact(ctx, id);
  const input = parseInput(ContactInputSchema, mergeOver(ContactInputSchema, existing, fields));
  await withTransaction(ctx, async (trx) => {
    const owners = ownersInLockOrder<ContactOwnerType>([existing.entityType, existing.entityId], [input.entityType, input.entityId]);
    for (const [type, ownerId] of owners) await lockOwner(trx, type, ownerId);
    // Read again under the lock: fields the body leaves out keep what is stored now, not what was read before.
    const current = await findContact(trx, id);
    if (!current) throw notFound('Contact not found');
    if (current.entityType !== existing.entityType || current.entityId !== existing.entityId)
      throw conflict('The contact was moved meanwhile; try again');
    await assertVersion(trx, { entityType: 'contact', entityId: id, noun: 'contact' }, current.updatedAt, version);
    const fresh = parseInput(ContactInputSchema, mergeOver(ContactInputSchema, current, fields));
    await updateContactRow(trx, id, { ...fresh, updatedAt: ctx.clock.now() });
    if (fresh.isPrimary) await clearOtherPrimaries(trx, fresh.entityType, fresh.entityId, id);
    const after = (await findContact(trx, id))!;
    const changes = changedFields(current, after);
    if (Object.keys(changes).length)
      await recordHistory(trx, ctx, await historyActorOf(trx, actor), [
        { entityType: 'contact', entityId: id, action: 'update', changes, record: after },
      ]);
  });
  ctx.log.info({ event: 'contact_updated', contactId: id, userId: actor.userId }, 'contact updated');
  return getContact(ctx, id);
}

export async function deleteContact(ctx: AppContext, actor: Actor, id: number): Promise<void> {
  requireRole(actor, 'staff');
  await withTransaction(ctx, async (trx) => {
    const contact = await findContact(trx, id);
    if (!contact) throw notFound('Contact not found');
    await deleteContactsIn(trx, ctx, actor, [contact]);
  });
  ctx.log.info({ event: 'contact_deleted', contactId: id, userId: actor.userId }, 'contact deleted');
}

/**
 * Deletes contacts read inside the caller's transaction, each with a history entry holding what it was. The single
 * delete and the bulk delete both go through here.
 */
export async function deleteContactsIn(trx: Knex.Transaction, ctx: AppContext, actor: Actor, contacts: readonly Contact[]): Promise<void> {
  const deleted = await deleteContactRows(
    trx,
    contacts.map((contact) => contact.id),
  );
  if (deleted !== contacts.length) throw notFound('Contact not found');
  const entries = contacts.map((contact): HistoryChange => ({
    entityType: 'contact',
    entityId: contact.id,
    action: 'delete',
    changes: contact,
  }));
  if (entries.length > 0) await recordHistory(trx, ctx, await historyActorOf(trx, actor), entries);
}
