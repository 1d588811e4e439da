import { createStaticHandler, type DataRouteObject } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '@views/routes.js';
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
          css: [],
          preload: ['/assets/chunks/react.js'],
          inlineCss: '.page{margin:0}',
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
    // The stylesheet travels in the page: the first paint waits for no other request.
    expect(dashboard.text).toContain('<style>.page{margin:0}</style>');
    expect(dashboard.text).not.toContain('rel="stylesheet"');
  });
});
