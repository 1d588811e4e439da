import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { forbidden, unauthorized } from '@services/errors.js';
import { PACER_VERSION } from '@shared/release.js';
import { actorOf } from './actor.js';
import type { HttpPlumbing } from './http-plumbing.js';
import { activityReads, activityRouter } from './activity/index.js';
import { attachmentsReads, attachmentsRouter } from './attachments/index.js';
import { backupsReads, backupsRouter } from './backups/index.js';
import { contactsBulkRouter, contactsDirectoryReads } from './contacts/index.js';
import { accountReads, accountRouter } from './core/account.js';
import { apiTokensReads, apiTokensRouter } from './core/api-tokens.js';
import { authRouter } from './core/auth.js';
import { trashReads, trashRouter } from './core/trash.js';
import { usersReads, usersRouter } from './core/users.js';
import { coreReads } from './core/reads.js';
import { duplicatesReads, duplicatesRouter } from './duplicates/index.js';
import { importsReads, importsRouter } from './imports/index.js';
import { generalImportRouter } from './imports/general.js';
import { integrationsReads, integrationsRouter } from './integrations/index.js';
import { preferencesReads, preferencesRouter } from './preferences/index.js';
import { jobsReads, jobsRouter } from './jobs/index.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { notesReads, notesRouter } from './notes/index.js';
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
  // Before attachmentsReads: /api/contacts/:id/activity has the shape of /api/contacts/:entityType/:entityId.
  ...activityReads,
  ...attachmentsReads,
  ...importsReads,
  ...integrationsReads,
  ...preferencesReads,
  ...contactsDirectoryReads,
  ...searchReads,
  ...jobsReads,
  ...backupsReads,
  ...apiTokensReads,
  ...notesReads,
  ...webhooksReads,
  ...duplicatesReads,
];

function requireUser(req: Request, _res: Response, next: NextFunction) {
  next(req.user || req.apiToken ? undefined : unauthorized());
}

/**
 * What belongs to a person (their sessions, name, password and preferences): an API token has none of these. Tokens
 * are made and revoked by a signed-in admin only, so a leaked token cannot make itself a successor.
 */
const PERSON_ONLY = /^\/(?:sessions|account|preferences|api-tokens|me|security|notifications)(?:\/|$)/;

function refuseTokensOnPersonalRoutes(req: Request, _res: Response, next: NextFunction) {
  next(
    req.apiToken && PERSON_ONLY.test(req.path)
      ? forbidden('An API token cannot use this route: it belongs to a signed-in person.')
      : undefined,
  );
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
  // The description holds no data: open without signing in, built once from this router's own routes.
  let openApi: object | undefined;
  router.get('/openapi.json', (_req, res) => {
    openApi ??= buildOpenApiDocument(router, PACER_VERSION);
    res.json(openApi);
  });
  router.use(requireUser);
  router.use(refuseTokensOnPersonalRoutes);
  for (const read of allReads) {
    router.get(read.path.replace(/^\/api/, ''), async (req, res) => {
      res.json(
        await read.handler({
          ctx: req.ctx,
          user: req.user,
          actor: actorOf(req),
          sessionId: req.sessionId,
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
  router.use(generalImportRouter());
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
  router.use(backupsRouter());
  router.use(apiTokensRouter());
  router.use(notesRouter());
  router.use(webhooksRouter());
  router.use(duplicatesRouter());
  router.use(activityRouter());
  router.use(http.apiNotFound());
  return router;
}
