import express, { Router, type Request } from 'express';
import { passkeySignInOptions, signInWithPasskey } from '@services/auth/passkeys.js';
import { login } from '@services/auth/service.js';
import { requestPasswordReset } from '@services/auth/password-reset.js';
import { endSession } from '@services/auth/sessions.js';
import { unauthorized } from '@services/errors.js';
import { attentionCounts } from '@services/notifications/service.js';
import { describeSetPasswordLink, setPasswordWithLink } from '@services/users/links.js';
import { createFirstAdmin, needsFirstUser } from '@services/users/service.js';
import { publicEnv } from '@config/env.js';
import type { SessionInfo } from '@shared/session.js';
import type { HttpPlumbing } from '../http-plumbing.js';

export async function sessionInfo(req: Request, http: Pick<HttpPlumbing, 'localeOf' | 'timeZoneOf' | 'themeOf'>): Promise<SessionInfo> {
  return {
    user: req.user ?? null,
    needsSetup: req.user ? false : await needsFirstUser(req.ctx),
    locale: http.localeOf(req),
    timeZone: http.timeZoneOf(req),
    theme: http.themeOf(req),
    env: publicEnv(req.ctx.config),
    ...(req.user ? { attention: await attentionCounts(req.ctx, req.user.id) } : {}),
  };
}

/** Sign-in, sign-out, the current user and first-run set-up: the only /api routes open without a session. */
export function authRouter(http: HttpPlumbing): Router {
  const { refuseInsecureSignIn, sessionClientOf, startSession } = http;
  const router = Router();
  // Only these small bodies are parsed here: this router sees every /api request, and other routes set their own limits.
  const json = express.json({ limit: '16kb' });
  const secureOnly = refuseInsecureSignIn();

  router.post('/login', secureOnly, json, async (req, res) => {
    const user = await login(req.ctx, req.ctx.throttle, req.body, sessionClientOf(req));
    await startSession(req, user.id);
    res.json({ user });
  });

  // Sign-in with a passkey alone (docs/decisions/0104): a challenge for any of the site's passkeys, then the assertion.
  // The options also serve a passkey given as the second factor to POST /login.
  router.post('/login/passkey/options', async (req, res) => {
    res.json(await passkeySignInOptions(req.ctx));
  });

  router.post('/login/passkey', secureOnly, json, async (req, res) => {
    const user = await signInWithPasskey(req.ctx, req.ctx.throttle, req.body, sessionClientOf(req));
    await startSession(req, user.id);
    res.json({ user });
  });

  router.post('/logout', async (req, res) => {
    if (req.sessionId) await endSession(req.ctx, req.sessionId);
    req.session = null;
    res.status(204).end();
  });

  router.get('/me', (req, res) => {
    if (!req.user) throw unauthorized();
    res.json({ user: req.user });
  });

  router.get('/session', async (req, res) => {
    res.json(await sessionInfo(req, http));
  });

  // The "Set your password" page: open without a session, the one-time token in the path is the proof.
  router.get('/set-password/:token', async (req, res) => {
    res.json(await describeSetPasswordLink(req.ctx, req.params.token));
  });

  router.post('/set-password/:token', secureOnly, json, async (req, res) => {
    const user = await setPasswordWithLink(req.ctx, req.params.token, req.body, sessionClientOf(req));
    await startSession(req, user.id);
    res.json({ user });
  });

  // "Forgot password?": 202 whatever the address (docs/decisions/0103).
  router.post('/password-reset', json, async (req, res) => {
    res.status(202).json(await requestPasswordReset(req.ctx, req.ctx.throttle, req.body, sessionClientOf(req)));
  });

  router.post('/setup', secureOnly, json, async (req, res) => {
    const user = await createFirstAdmin(req.ctx, req.ctx.throttle, req.body, sessionClientOf(req));
    await startSession(req, user.id);
    res.status(201).json({ user });
  });

  return router;
}
