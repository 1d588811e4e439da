import { Router } from 'express';
import { parseId } from '@services/attachments/owners.js';
import { badRequest } from '@services/errors.js';
import { createNote, deleteNote, listNotes, mentionableUsers, updateNote } from '@services/notes/service.js';
import { listNotifications, markNotificationsRead } from '@services/notifications/service.js';
import { createTask, deleteTask, getTask, listTasks, readTaskQuery, updateTask } from '@services/tasks/service.js';
import { NOTE_OWNER_TYPES, type NoteOwnerType } from '@shared/schemas/notes.js';
import { actorOf } from '../actor.js';
import { defineRead, type ReadRoute } from '../reads.js';

function ownerOf(query: URLSearchParams): { type: NoteOwnerType; id: number } {
  const type = query.get('entityType');
  const id = query.get('entityId');
  if (!type || !id) throw badRequest('Give entityType and entityId');
  if (!(NOTE_OWNER_TYPES as readonly string[]).includes(type)) throw badRequest(`entityType must be one of ${NOTE_OWNER_TYPES.join(', ')}`);
  if (!/^\d{1,10}$/.test(id) || Number(id) < 1) throw badRequest('entityId must be a record id');
  return { type: type as NoteOwnerType, id: Number(id) };
}

/** Notes, tasks and the notification bell (issue 33): reads. */
export const notesReads: ReadRoute[] = [
  defineRead('/api/notes/mentionable', ({ ctx }) => mentionableUsers(ctx)),
  defineRead('/api/notes', ({ ctx, query }) => {
    const owner = ownerOf(query);
    return listNotes(ctx, owner.type, owner.id);
  }),
  defineRead('/api/tasks', ({ ctx, actor, query }) => listTasks(ctx, actor, readTaskQuery(query))),
  defineRead('/api/tasks/:id', ({ ctx, params }) => getTask(ctx, parseId(params.id, 'Task'))),
  defineRead('/api/notifications', (request) => listNotifications(request.ctx, request.actor)),
];

/** Their writes (the services check the role: viewers read, staff and admins write). */
export function notesRouter(): Router {
  const router = Router();
  router.post('/notes', async (req, res) => {
    res.status(201).json(await createNote(req.ctx, actorOf(req), req.body));
  });
  router.put('/notes/:id', async (req, res) => {
    res.json(await updateNote(req.ctx, actorOf(req), parseId(req.params.id, 'Note'), req.body));
  });
  router.delete('/notes/:id', async (req, res) => {
    await deleteNote(req.ctx, actorOf(req), parseId(req.params.id, 'Note'));
    res.status(204).end();
  });
  router.post('/tasks', async (req, res) => {
    res.status(201).json(await createTask(req.ctx, actorOf(req), req.body));
  });
  router.put('/tasks/:id', async (req, res) => {
    res.json(await updateTask(req.ctx, actorOf(req), parseId(req.params.id, 'Task'), req.body));
  });
  router.delete('/tasks/:id', async (req, res) => {
    await deleteTask(req.ctx, actorOf(req), parseId(req.params.id, 'Task'));
    res.status(204).end();
  });
  // Marking my own notifications read is open to every role.
  router.post('/notifications/read', async (req, res) => {
    res.json(await markNotificationsRead(req.ctx, actorOf(req), req.body));
  });
  return router;
}
