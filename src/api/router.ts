import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { unauthorized } from '@services/errors.js';
import type { HttpPlumbing } from './http-plumbing.js';
import { attachmentsReads, attachmentsRouter } from './attachments/index.js';
import { contactsBulkRouter, contactsDirectoryReads } from './contacts/index.js';
import { accountReads, accountRouter } from './core/account.js';
import { authRouter } from './core/auth.js';
import { trashReads, trashRouter } from './core/trash.js';
import { usersReads, usersRouter } from './core/users.js';
import { coreReads } from './core/reads.js';
import { importsReads, importsRouter } from './imports/index.js';
import { integrationsReads, integrationsRouter } from './integrations/index.js';
import { preferencesReads, preferencesRouter } from './preferences/index.js';
import { jobsReads, jobsRouter } from './jobs/index.js';
import { queryOf, type ReadRoute } from './reads.js';
import { recordsReads, recordsRouter } from './records/index.js';
import { searchReads } from './search/index.js';
import { webhooksReads, webhooksRouter } from './webhooks/index.js';

const allReads: ReadRoute[] = [
  ...coreReads,
  ...accountReads,
  ...usersReads,
  ...trashReads,
  ...recordsReads,
  ...attachmentsReads,
  ...importsReads,
  ...integrationsReads,
  ...preferencesReads,
  ...contactsDirectoryReads,
  ...searchReads,
  ...jobsReads,
  ...webhooksReads,
];

function requireUser(req: Request, _res: Response, next: NextFunction) {
  next(req.user ? undefined : unauthorized());
}

/** The /api routes; `http` is the web server's session, locale and not-found plumbing (src/server/app.ts). */
export function createApiRouter(http: HttpPlumbing): Router {
  const router = Router();
  // Answers hold private data that changes with every write: no shared or disk cache keeps them.
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(authRouter(http));
  router.use(requireUser);
  for (const read of allReads) {
    router.get(read.path.replace(/^\/api/, ''), async (req, res) => {
      res.json(
        await read.handler({
          ctx: req.ctx,
          user: req.user!,
          sessionId: req.sessionId!,
          params: req.params as Record<string, string | undefined>,
          query: queryOf(req),
          locale: http.localeOf(req),
          timeZone: http.timeZoneOf(req),
        }),
      );
    });
  }
  // Imports carry whole CSV files as JSON, so they bring their own larger body limit before the default one.
  router.use(importsRouter());
  router.use(jobsRouter());
  router.use(express.json({ limit: '1mb' }));
  router.use(accountRouter());
  router.use(usersRouter());
  router.use(trashRouter());
  router.use(recordsRouter());
  router.use(attachmentsRouter());
  router.use(integrationsRouter());
  router.use(preferencesRouter());
  router.use(contactsBulkRouter());
  router.use(webhooksRouter());
  router.use(http.apiNotFound());
  return router;
}
