import { Router, type Request } from 'express';
import { parseId } from '@services/attachments/owners.js';
import { addUser, createResetLink } from '@services/users/links.js';
import { listUsers, updateUserAccount } from '@services/users/service.js';
import { actorOf } from '../actor.js';
import { defineRead, type ReadRoute } from '../reads.js';

/** The site's own address as the admin reaches it (the origin check has matched it with the Origin header). */
const siteOrigin = (req: Request) => `${req.protocol}://${req.get('host')}`;

/** /settings/users (admins; the services check the role). */
export const usersReads: ReadRoute[] = [defineRead('/api/users', ({ ctx, actor }) => listUsers(ctx, actor))];

export function usersRouter(): Router {
  const router = Router();
  router.post('/users', async (req, res) => {
    const { user, link } = await addUser(req.ctx, actorOf(req), req.body, siteOrigin(req));
    res.status(201).json({ user, ...link });
  });
  router.put('/users/:id', async (req, res) => {
    res.json({ user: await updateUserAccount(req.ctx, actorOf(req), parseId(req.params.id, 'User'), req.body) });
  });
  router.post('/users/:id/reset-link', async (req, res) => {
    res.json(await createResetLink(req.ctx, actorOf(req), parseId(req.params.id, 'User'), siteOrigin(req)));
  });
  return router;
}
