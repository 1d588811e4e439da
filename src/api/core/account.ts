import { Router, type Request } from 'express';
import { confirmTotpEnrolment, disableTotp, startTotpEnrolment, twoFactorStatus } from '@services/auth/second-factor.js';
import { listMyPasskeys, passkeyRegistrationOptions, registerPasskey, removePasskey, renamePasskey } from '@services/auth/passkeys.js';
import { endMySession, endOtherSessions, listMySessions } from '@services/auth/sessions.js';
import { listMySignIns } from '@services/auth/sign-in-events.js';
import { changeMyName, changeMyPassword } from '@services/users/service.js';
import { notFound } from '@services/errors.js';
import { defineRead, personOf, type ReadRoute } from '../reads.js';

/** The signed-in person's own account and sessions (/settings/account); open to every role. */
export const accountReads: ReadRoute[] = [
  defineRead('/api/sessions', (request) => {
    const { user, sessionId } = personOf(request);
    return listMySessions(request.ctx, user.id, sessionId);
  }),
  defineRead('/api/me/sign-ins', (request) => listMySignIns(request.ctx, personOf(request).user.id)),
  defineRead('/api/me/two-factor', (request) => {
    const { user, sessionId } = personOf(request);
    return twoFactorStatus(request.ctx, user.id, sessionId);
  }),
  defineRead('/api/me/passkeys', (request) => listMyPasskeys(request.ctx, personOf(request).user.id)),
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
    await changeMyPassword(req.ctx, req.ctx.throttle, req.user!.id, req.sessionId!, req.body, clientOf(req));
    res.status(204).end();
  });
  // Two-factor sign-in with an authenticator app (docs/decisions/0102).
  router.post('/me/totp', async (req, res) => {
    res.json(await startTotpEnrolment(req.ctx, req.user!.id));
  });
  router.post('/me/totp/confirm', async (req, res) => {
    res.json(await confirmTotpEnrolment(req.ctx, req.ctx.throttle, req.user!.id, clientOf(req), req.body));
  });
  router.delete('/me/totp', async (req, res) => {
    await disableTotp(req.ctx, req.ctx.throttle, req.user!.id, clientOf(req), req.body);
    res.status(204).end();
  });
  // Passkeys (docs/decisions/0104): options for the browser, then its new credential; rename and remove.
  router.post('/me/passkeys/options', async (req, res) => {
    res.json(await passkeyRegistrationOptions(req.ctx, req.user!.id));
  });
  router.post('/me/passkeys', async (req, res) => {
    res.status(201).json(await registerPasskey(req.ctx, req.user!.id, clientOf(req), req.body));
  });
  router.patch('/me/passkeys/:id', async (req, res) => {
    res.json(await renamePasskey(req.ctx, req.user!.id, passkeyId(req), req.body));
  });
  router.delete('/me/passkeys/:id', async (req, res) => {
    await removePasskey(req.ctx, req.user!.id, passkeyId(req), clientOf(req));
    res.status(204).end();
  });
  return router;
}

/** A passkey's id from the path: a positive integer, else 404 (nothing else could name one). */
function passkeyId(req: Request): number {
  const id = Number(req.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound('Passkey not found');
  return id;
}

/** Where a request came from, for the sign-in history. */
export const clientOf = (req: Request) => ({ ip: req.ip ?? 'unknown', userAgent: req.get('user-agent') ?? '' });
