import type { Router } from 'express';
import { parseContactOwnerType, parseId } from '@services/attachments/owners.js';
import { createContact, deleteContact, getContact, listContacts, updateContact } from '@services/contacts/service.js';
import { getContactOwner, getContactWithOwner } from '@services/contacts/directory.js';
import { badRequest } from '@services/errors.js';
import { defineRead } from '../reads.js';
import { writesRouter } from './writes.js';

/** `?include=owner` adds the owner (`{type, id, name}`) to a contact, as the contact pages show it. */
function includesOwner(query: URLSearchParams): boolean {
  const include = query.get('include');
  if (include === null) return false;
  if (include === 'owner') return true;
  throw badRequest('include must be owner');
}

export const contactsReads = [
  defineRead('/api/contacts/:id', ({ ctx, params, query }) => {
    const id = parseId(params.id, 'Contact');
    return includesOwner(query) ? getContactWithOwner(ctx, id) : getContact(ctx, id);
  }),
  defineRead('/api/contacts/:entityType/:entityId', ({ ctx, params }) =>
    listContacts(ctx, parseContactOwnerType(params.entityType), parseId(params.entityId, 'Record')),
  ),
  // The owner by name, for the add-contact page (which has no contact to carry it).
  defineRead('/api/contacts/:entityType/:entityId/owner', ({ ctx, params }) =>
    getContactOwner(ctx, parseContactOwnerType(params.entityType), parseId(params.entityId, 'Record')),
  ),
];

export function contactsRouter(): Router {
  return writesRouter('contacts', 'Contact', { create: createContact, update: updateContact, remove: deleteContact });
}
