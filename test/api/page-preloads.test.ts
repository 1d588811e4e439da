import { createStaticHandler, type DataRouteObject } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@views/routes.js';
import { stylesheetVersion } from '@ssr/stylesheet.js';
import { createTestApp, type TestApp } from '@test/helpers/app.js';

/** The id react-router gives the route at `path` (the ids the build's manifest is keyed by). */
function routeIdOf(path: string, table: DataRouteObject[] = createStaticHandler(routes).dataRoutes): string | undefined {
  for (const route of table) {
    if (route.path === path) return route.id;
    const inChild = routeIdOf(path, route.children ?? []);
    if (inChild) return inChild;
  }
  return undefined;
}

const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((match) => match[1]);
const scripts = (html: string) => [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]);

describe('module preloads of a page', () => {
  let t: TestApp;
  beforeAll(async () => {
    const listId = routeIdOf('events')!;
    const detailId = routeIdOf('events/:id')!;
    t = await createTestApp({
      extend: (ctx) => ({
        ...ctx,
        assets: {
          entry: '/assets/entry.js',
          css: ['/assets/styles-A1.css'],
          preload: ['/assets/chunks/react.js'],
          auth: { entry: '/assets/entry.auth.js', preload: ['/assets/chunks/react.js', '/assets/chunks/auth-forms.js'] },
          inlineCss: '.page{margin:0}',
          cssVersion: stylesheetVersion(['/assets/styles-A1.css']),
          routes: {
            [listId]: ['/assets/chunks/events-list.js', '/assets/chunks/records.js'],
            [detailId]: ['/assets/chunks/events-detail.js', '/assets/chunks/records.js'],
          },
        },
      }),
    });
  });
  afterAll(() => t.close());

  it('preloads the entry, its chunks and the matched route’s own code, each once', async () => {
    const { agent } = await t.signedInAgent();
    const list = await agent.get('/events');
    expect(list.status).toBe(200);
    expect(preloads(list.text)).toEqual([
      '/assets/entry.js',
      '/assets/chunks/react.js',
      '/assets/chunks/events-list.js',
      '/assets/chunks/records.js',
    ]);

    const detail = await agent.get('/events/12345');
    expect(preloads(detail.text)).toEqual([
      '/assets/entry.js',
      '/assets/chunks/react.js',
      '/assets/chunks/events-detail.js',
      '/assets/chunks/records.js',
    ]);

    const dashboard = await agent.get('/');
    expect(preloads(dashboard.text)).toEqual(['/assets/entry.js', '/assets/chunks/react.js']);
  });

  it('sends a browser’s first page the stylesheet inline, and later pages a link to the file it has cached', async () => {
    const { agent } = await t.signedInAgent();
    // The first page: the first paint waits for no other request, and the file is fetched when the browser is idle.
    const first = await agent.get('/').set('Cookie', 'css=an-older-build');
    expect(first.text).toContain('<style>.page{margin:0}</style><link rel="prefetch" href="/assets/styles-A1.css" as="style">');
    expect(first.text).not.toContain('rel="stylesheet"');
    const setCookie = first.headers['set-cookie'] as unknown as string[];
    const remembered = setCookie.find((cookie) => cookie.startsWith('css='))!;
    expect(remembered).toMatch(/Max-Age=\d+/);

    const later = await agent.get('/events').set('Cookie', remembered.split(';')[0]!);
    expect(later.status).toBe(200);
    expect(later.text).toContain('<link rel="stylesheet" href="/assets/styles-A1.css">');
    expect(later.text).not.toContain('<style>');
    expect(later.headers['set-cookie']).toBeUndefined();
  });

  it('gives the sign-in page, at any URL, the auth entry and its chunks alone: no app entry, route code or router data', async () => {
    await t.signedInAgent('preloads@example.org');
    for (const path of ['/', '/events', '/events/12345', '/no/such/page']) {
      const page = await t.agent().get(path);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Sign In');
      expect(preloads(page.text)).toEqual(['/assets/entry.auth.js', '/assets/chunks/react.js', '/assets/chunks/auth-forms.js']);
      // The only script that runs is the auth entry; the screen's name travels in a JSON block, as loader data does.
      expect(scripts(page.text)).toEqual([' type="application/json" id="auth-screen"', ' type="module" src="/assets/entry.auth.js"']);
      expect(page.text).toContain(
        '<script type="application/json" id="auth-screen">{"name":"sign-in","resetByEmail":false,"passkeys":false}</script>',
      );
    }
  });

  it('gives the set-password page, signed in or out, the auth entry with its token, and refuses a post to it', async () => {
    const { agent } = await t.signedInAgent();
    for (const visitor of [agent, t.agent()]) {
      const page = await visitor.get('/set-password/a-token_0');
      expect(page.status).toBe(200);
      expect(page.text).toContain('Set your password');
      expect(page.text).not.toContain('Logout');
      expect(preloads(page.text)).toEqual(['/assets/entry.auth.js', '/assets/chunks/react.js', '/assets/chunks/auth-forms.js']);
      expect(page.text).toContain('<script type="application/json" id="auth-screen">{"name":"set-password","token":"a-token_0"}</script>');
    }
    // Its form posts to the API; a page post (a browser without script) is told the page takes none.
    const posted = await agent.post('/set-password/a-token_0').type('form').send('password=long+enough+pw&repeat=long+enough+pw');
    expect(posted.status).toBe(405);
    expect(posted.headers.allow).toBe('GET, HEAD');
    expect(posted.text).toContain('Set your password');
  });
});
