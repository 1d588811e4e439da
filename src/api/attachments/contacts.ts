import type { Router } from 'express';
import { parseContactOwnerType, parseId } from '@services/attachments/owners.js';
import { createContact, deleteContact, getContact, listContacts, updateContact } from '@services/contacts/service.js';
import { defineRead } from '../reads.js';
import { writesRouter } from './writes.js';

export const contactsReads = [
  defineRead('/api/contacts/:id', ({ ctx, params }) => getContact(ctx, parseId(params.id, 'Contact'))),
  defineRead('/api/contacts/:entityType/:entityId', ({ ctx, params }) =>
    listContacts(ctx, parseContactOwnerType(params.entityType), parseId(params.entityId, 'Record')),
  ),
];

export function contactsRouter(): Router {
  return writesRouter('contacts', 'Contact', { create: createContact, update: updateContact, remove: deleteContact });
}
