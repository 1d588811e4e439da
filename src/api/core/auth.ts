import express, { Router, type Request } from 'express';
import { login, logout } from '@services/auth/service.js';
import { unauthorized } from '@services/errors.js';
import { createFirstAdmin, needsFirstUser } from '@services/users/service.js';
import { publicEnv } from '@config/env.js';
import { refuseInsecureSignIn, startSession } from '@server/session.js';
import { localeOf, timeZoneOf, themeOf } from '@server/locale.js';
import type { SessionInfo } from '@shared/session.js';

export async function sessionInfo(req: Request): Promise<SessionInfo> {
  return {
    user: req.user ?? null,
    needsSetup: req.user ? false : await needsFirstUser(req.ctx),
    locale: localeOf(req),
    timeZone: timeZoneOf(req),
    theme: themeOf(req),
    env: publicEnv(req.ctx.config),
  };
}

/** Sign-in, sign-out, the current user and first-run set-up: the only /api routes open without a session. */
export function authRouter(): Router {
  const router = Router();
  // Only these small bodies are parsed here: this router sees every /api request, and other routes set their own limits.
  const json = express.json({ limit: '16kb' });
  const secureOnly = refuseInsecureSignIn();

  router.post('/login', secureOnly, json, async (req, res) => {
    const result = await login(req.ctx, req.ctx.throttle, req.body, req.ip ?? 'unknown');
    startSession(req, result.user.id, result.sessionVersion);
    res.json({ user: result.user });
  });

  router.post('/logout', async (req, res) => {
    if (req.user) await logout(req.ctx, req.user.id);
    req.session = null;
    res.status(204).end();
  });

  router.get('/me', (req, res) => {
    if (!req.user) throw unauthorized();
    res.json({ user: req.user });
  });

  router.get('/session', async (req, res) => {
    res.json(await sessionInfo(req));
  });

  router.post('/setup', secureOnly, json, async (req, res) => {
    const user = await createFirstAdmin(req.ctx, req.body);
    startSession(req, user.id, 0);
    res.status(201).json({ user });
  });

  return router;
}
