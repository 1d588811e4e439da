import { Router } from 'express';
import { parseContactOwnerType, parseId } from '../../services/attachments/owners.js';
import { createContact, deleteContact, getContact, listContacts, updateContact } from '../../services/contacts/service.js';
import { defineRead } from '../reads.js';
import { actorOf } from './actor.js';

export const contactsReads = [
  defineRead('/api/contacts/:id', ({ ctx, params }) => getContact(ctx, parseId(params.id, 'Contact'))),
  defineRead('/api/contacts/:entityType/:entityId', ({ ctx, params }) =>
    listContacts(ctx, parseContactOwnerType(params.entityType), parseId(params.entityId, 'Record')),
  ),
];

export function contactsRouter(): Router {
  const router = Router();
  router.post('/contacts', async (req, res) => {
    res.status(201).json(await createContact(req.ctx, actorOf(req), req.body));
  });
  router.put('/contacts/:id', async (req, res) => {
    res.json(await updateContact(req.ctx, actorOf(req), parseId(req.params.id, 'Contact'), req.body));
  });
  router.delete('/contacts/:id', async (req, res) => {
    await deleteContact(req.ctx, actorOf(req), parseId(req.params.id, 'Contact'));
    res.status(204).end();
  });
  return router;
}
