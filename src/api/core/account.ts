import { Router } from 'express';
import { endMySession, endOtherSessions, listMySessions } from '@services/auth/sessions.js';
import { changeMyName, changeMyPassword } from '@services/users/service.js';
import { defineRead, personOf, type ReadRoute } from '../reads.js';

/** The signed-in person's own account and sessions (/settings/account); open to every role. */
export const accountReads: ReadRoute[] = [
  defineRead('/api/sessions', (request) => {
    const { user, sessionId } = personOf(request);
    return listMySessions(request.ctx, user.id, sessionId);
  }),
];

export function accountRouter(): Router {
  const router = Router();
  router.delete('/sessions/:id', async (req, res) => {
    await endMySession(req.ctx, req.user!.id, String(req.params.id));
    res.status(204).end();
  });
  router.post('/sessions/sign-out-others', async (req, res) => {
    res.json({ ended: await endOtherSessions(req.ctx, req.user!.id, req.sessionId!) });
  });
  router.put('/account', async (req, res) => {
    res.json({ user: await changeMyName(req.ctx, req.user!.id, req.body) });
  });
  router.post('/account/password', async (req, res) => {
    await changeMyPassword(req.ctx, req.ctx.throttle, req.user!.id, req.sessionId!, req.body);
    res.status(204).end();
  });
  return router;
}
