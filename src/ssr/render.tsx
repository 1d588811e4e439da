import express, { type NextFunction, type Request, type Response } from 'express';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type StaticHandlerContext } from 'react-router';
import { routes } from '@views/routes.js';
import { AuthPage, type AuthScreen } from '@views/pages/auth/auth-page.js';
import type { ServerLoaderContext } from '@views/data/source.js';
import { AppError, badRequest } from '@services/errors.js';
import { selfServiceResetAvailable } from '@services/auth/password-reset.js';
import { relyingParty } from '@services/auth/passkeys.js';
import { serverDataSource } from './data-source.js';
import { hydrationDataElement, jsonDataElement } from './hydration.js';
import { escapeAttr } from './html-attribute.js';
import { stylesheetTags } from './stylesheet.js';
import { localeOf, themeOf } from '@shared/request-locale.js';
import type { AssetManifest } from './assets.js';
import { AUTH_SCREEN_ID } from '@shared/hydration.js';
import { setPasswordTokenOf } from '@shared/set-password-link.js';

const handler = createStaticHandler(routes);

const FORM_TYPE = 'application/x-www-form-urlencoded';
const readFormText = express.text({ type: FORM_TYPE, limit: '1mb' });

/**
 * A page form's body, kept as the text the browser sent: the route action reads it with request.formData(). Page
 * forms send only urlencoded fields (files go to /api/upload), so any other body is refused.
 */
export function pageFormBody() {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!req.is(FORM_TYPE))
      return next(new AppError(415, 'unsupported_media_type', 'Page forms must be sent as application/x-www-form-urlencoded'));
    readFormText(req, res, next);
  };
}

/** The page's URL; Node accepts any Host header, and one that is no host name is the client's mistake (400). */
function pageUrl(req: Request): URL {
  try {
    return new URL(req.originalUrl, `${req.protocol}://${req.get('host') ?? 'localhost'}`);
  } catch {
    throw badRequest('The request could not be read: its Host header is not a host name');
  }
}

/**
 * The request the route loaders and actions see. They read its URL and a posted form; everything about the session
 * reaches them through the request context, so the headers are not copied. It carries no abort signal: no loader
 * or action stops on one (a page's reads are short, and a write must finish whoever is still listening), and
 * linking a signal into a fetch Request costs three times the Request itself.
 */
function toFetchRequest(req: Request): globalThis.Request {
  const url = pageUrl(req);
  if (req.method !== 'POST') return new globalThis.Request(url, { method: 'GET' });
  const body = typeof req.body === 'string' ? req.body : '';
  return new globalThis.Request(url, { method: 'POST', body, headers: { 'Content-Type': FORM_TYPE } });
}

/** The head's tags that are the same on every page. */
const STATIC_HEAD = [
  '<head>',
  '<meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<meta name="color-scheme" content="light dark">',
  '<title>Pacer CRM</title>',
  '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
].join('');

const preloadTags = (modules: Iterable<string>) =>
  [...modules].map((href) => `<link rel="modulepreload" href="${escapeAttr(href)}">`).join('');

/** The modulepreload tags of each matched route chain, per build's asset manifest (a few dozen chains at most). */
const preloadTagsByAssets = new WeakMap<AssetManifest, Map<string, string>>();

/**
 * The entry, the chunks it imports, and the code of every matched route: the browser fetches them all at once,
 * instead of finding a page's module only after the entry has run (a round trip more on a slow network). They
 * depend only on the build and the matched routes, so each chain's tags are made once.
 */
function modulePreloadTags(assets: AssetManifest, context: StaticHandlerContext): string {
  let byChain = preloadTagsByAssets.get(assets);
  if (!byChain) preloadTagsByAssets.set(assets, (byChain = new Map()));
  const chain = context.matches.map((match) => match.route.id).join(' ');
  let tags = byChain.get(chain);
  if (tags === undefined) {
    const modules = new Set([assets.entry, ...assets.preload]);
    for (const match of context.matches) for (const href of assets.routes?.[match.route.id] ?? []) modules.add(href);
    tags = preloadTags(modules);
    byChain.set(chain, tags);
  }
  return tags;
}

/**
 * The routes the page's router is made of: the matched ones, as the handler converted them, without their children.
 * createStaticRouter converts every route it is given, on every request (the whole table: a third of a detail
 * page's render time), and rendering reads only the matched routes, by the ids the handler's context gives them.
 */
function matchedRoutesOf(context: StaticHandlerContext): StaticHandlerContext['matches'][number]['route'][] {
  return context.matches.map(({ route }) => ({ ...route, children: undefined }));
}

/**
 * The document around a page's markup: the head (language, theme, stylesheet and the module preloads), #root, and
 * after it the page's data block and its entry script.
 */
function sendDocument(
  req: Request,
  res: Response,
  page: { status: number; html: string; dataBlock: string; entry: string; modulePreloads: string },
) {
  const locale = localeOf(req);
  const theme = themeOf(req);
  const head =
    '<!DOCTYPE html>' +
    // 'system' leaves the attribute out, and the stylesheet follows the device's setting.
    (theme === 'system' ? `<html lang="${escapeAttr(locale)}">` : `<html lang="${escapeAttr(locale)}" data-theme="${theme}">`) +
    STATIC_HEAD +
    stylesheetTags(req.ctx.assets, req.get('cookie'), res) +
    page.modulePreloads +
    '</head><body><div id="root">';
  const tail = `</div>${page.dataBlock}<script type="module" src="${escapeAttr(page.entry)}"></script></body></html>`;
  res
    .status(page.status)
    .type('html')
    // Private, and stale after any write: the browser asks again instead of showing a stored copy.
    .set('Cache-Control', 'private, no-cache')
    .send(head + page.html + tail);
}

/**
 * The auth page a request gets instead of the app: the set-password page at its link (whoever asks), and for a
 * signed-out visitor the sign-in screen at any other URL (first-run set-up while no user exists); null when the app
 * renders the page.
 */
async function authScreenOf(req: Request): Promise<AuthScreen | null> {
  const token = setPasswordTokenOf(pageUrl(req).pathname);
  if (token !== null) return { name: 'set-password', token };
  if (req.user) return null;
  return (await serverDataSource(req).session()).needsSetup
    ? { name: 'setup' }
    : { name: 'sign-in', resetByEmail: selfServiceResetAvailable(req.ctx), passkeys: Boolean(relyingParty(req.ctx)) };
}

/**
 * An auth page: its one screen, hydrated by the auth entry alone (React and the screen: no router, no route table,
 * no loader data), so a signed-out visitor's first load is a fraction of the app's. After signing in the browser
 * loads the page it asked for as a new document, with the app's entry. A page post gets the screen too, refused:
 * signed out it is not allowed (401), and the set-password page takes none (405; its form posts to the API).
 */
function sendAuthPage(req: Request, res: Response, screen: AuthScreen) {
  const { auth } = req.ctx.assets;
  res.locals.routePattern = screen.name === 'set-password' ? '/set-password/:token' : `(${screen.name} page)`;
  const posted = req.method === 'POST';
  const takesNoPost = screen.name === 'set-password';
  if (posted && takesNoPost) res.set('Allow', 'GET, HEAD');
  // The sign-in form posted here and refused (src/server/session.ts signInFromPageForm): the screen says why.
  const refusal = screen.name === 'sign-in' ? req.signInRefusal : undefined;
  if (refusal && screen.name === 'sign-in')
    screen = { ...screen, error: refusal.message, askCode: ['second_factor_required', 'invalid_second_factor'].includes(refusal.code) };
  sendDocument(req, res, {
    status: refusal?.status ?? (posted ? (takesNoPost ? 405 : 401) : 200),
    html: renderToString(<AuthPage screen={screen} />),
    dataBlock: jsonDataElement(AUTH_SCREEN_ID, screen),
    entry: auth.entry,
    modulePreloads: preloadTags([auth.entry, ...auth.preload]),
  });
}

/** Every page: run the route loaders in-process, render, and hand the data to the browser for hydration. */
export function renderPage() {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const authScreen = await authScreenOf(req);
      if (authScreen) return sendAuthPage(req, res, authScreen);
      const requestContext: ServerLoaderContext = { dataSource: serverDataSource(req), signedIn: Boolean(req.user) };
      const context = await handler.query(toFetchRequest(req), { requestContext });
      if (context instanceof globalThis.Response) {
        const location = context.headers.get('Location');
        if (location && context.status >= 300 && context.status < 400) return res.redirect(context.status, location);
        return res.status(context.status).send(await context.text());
      }
      res.locals.routePattern = `/${context.matches.map((match) => match.route.path ?? '').join('/')}`.replace(/\/{2,}/g, '/');
      const router = createStaticRouter(matchedRoutesOf(context), context);
      // The loaders have already run and nothing suspends, so one synchronous render gives the whole page; the
      // streaming renderer would only add per-chunk encoding and writes.
      const html = renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
      // The catch-all route is the not-found page: say so in the status too.
      const notFound = context.matches[context.matches.length - 1]?.route.path === '*';
      sendDocument(req, res, {
        status: notFound && context.statusCode === 200 ? 404 : context.statusCode,
        html,
        dataBlock: hydrationDataElement(context),
        entry: req.ctx.assets.entry,
        modulePreloads: modulePreloadTags(req.ctx.assets, context),
      });
    } catch (error) {
      next(error);
    }
  };
}
