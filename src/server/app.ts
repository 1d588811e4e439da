import path from 'node:path';
import express, { type Express } from 'express';
import type { HttpPlumbing } from '@api/http-plumbing.js';
import { createApiRouter } from '@api/router.js';
import { pageFormBody, renderPage } from '@ssr/render.js';
import { apiDocs } from './api-docs.js';
import { apiTokenAuth } from './api-token-auth.js';
import { bundleFiles, compressAnswers } from './compression.js';
import { apiNotFound, errorHandler } from './errors.js';
import { healthRouter } from './health.js';
import { localeOf, themeOf, timeZoneOf } from '@shared/request-locale.js';
import { mountMetrics } from './metrics.js';
import { originCheck } from './origin-check.js';
import { logSignedInUser, requestLogging } from './request-log.js';
import { securityHeaders } from './security-headers.js';
import {
  holdForSecondFactorSetup,
  loadCurrentUser,
  refuseInsecureSignIn,
  sessionClientOf,
  sessionCookie,
  signInFromPageForm,
  startSession,
} from './session.js';
import type { ServerContext } from './types.js';

export interface AppOptions {
  /** Static files (favicon…); default `public`. */
  publicDir?: string;
  /** The built bundle; default `<publicDir>/assets`. Browser tests point it at a bundle of their own. */
  assetsDir?: string;
}

/** The session, locale and not-found plumbing the API routes call: they never import src/server themselves. */
export const apiPlumbing: HttpPlumbing = {
  startSession,
  sessionClientOf,
  refuseInsecureSignIn,
  localeOf,
  timeZoneOf,
  themeOf,
  apiNotFound,
};

/** The whole web app, without listen(), so tests drive it with supertest. */
export function createApp(ctx: ServerContext, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  // Every answer is private and built per request (Cache-Control says so), so an ETag would only cost a hash of
  // each body (stored files are immutable and carry their own Cache-Control).
  app.set('etag', false);
  if (ctx.config.trustProxy !== undefined) app.set('trust proxy', ctx.config.trustProxy);

  app.use(requestLogging(ctx.log));
  mountMetrics(app, ctx);
  app.use(healthRouter(ctx.db));
  app.use('/assets', bundleFiles(options.assetsDir ?? path.join(options.publicDir ?? 'public', 'assets')));
  // Only paths that name a file reach the disk: no stat() for every page and API request.
  const staticFiles = express.static(options.publicDir ?? 'public', { index: false });
  app.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) && !req.path.startsWith('/api/') ? staticFiles(req, res, next) : next()));
  app.use(compressAnswers());
  app.use(securityHeaders(ctx.config));
  app.use((req, _res, next) => {
    req.ctx = { ...ctx, log: req.log };
    next();
  });
  app.use(sessionCookie(ctx.config));
  app.use(loadCurrentUser());
  app.use(logSignedInUser());
  app.use('/api', apiTokenAuth(ctx.config.apiTokenRateLimit));
  app.use(holdForSecondFactorSetup());
  app.use(originCheck());
  app.use('/api/docs', apiDocs());
  app.use('/api', createApiRouter(apiPlumbing));
  app.get(/.*/, renderPage());
  // Page forms post to their own URL (route actions); the origin check above guards them like any write.
  app.post(/.*/, pageFormBody(), signInFromPageForm(), renderPage());
  app.use(errorHandler());
  return app;
}
