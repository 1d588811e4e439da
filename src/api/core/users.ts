import { Router, type Request } from 'express';
import { parseId } from '@services/attachments/owners.js';
import { addUser, createResetLink } from '@services/users/links.js';
import { listUsers, updateUserAccount } from '@services/users/service.js';
import { resetSecondFactors } from '@services/auth/second-factor.js';
import { securitySettings, setRequireTwoFactor } from '@services/auth/security-settings.js';
import { listSignInsOf } from '@services/auth/sign-in-events.js';
import { actorOf } from '../actor.js';
import { clientOf } from './account.js';
import { defineRead, type ReadRoute } from '../reads.js';

/** The site's own address as the admin reaches it (the origin check has matched it with the Origin header). */
const siteOrigin = (req: Request) => `${req.protocol}://${req.get('host')}`;

/** /settings/users (admins; the services check the role). */
export const usersReads: ReadRoute[] = [
  defineRead('/api/users', ({ ctx, actor }) => listUsers(ctx, actor)),
  defineRead('/api/users/:id/sign-ins', ({ ctx, actor, params }) => listSignInsOf(ctx, actor, parseId(params.id, 'User'))),
  defineRead('/api/security', ({ ctx, actor }) => securitySettings(ctx, actor)),
];

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
  router.post('/users/:id/reset-2fa', async (req, res) => {
    res.json(await resetSecondFactors(req.ctx, actorOf(req), { id: parseId(req.params.id, 'User') }, clientOf(req)));
  });
  router.put('/security', async (req, res) => {
    res.json(await setRequireTwoFactor(req.ctx, actorOf(req), req.body));
  });
  return router;
}
