import type { RouteObject } from 'react-router';
import { createApiRouter } from '@api/router.js';
import { apiPlumbing } from '@server/app.js';
import { routes as pageRouteTable } from '@views/routes.js';

/** One endpoint as the app declares it: `path` is the Express / React Router pattern (`:id`, `*`). */
export interface DeclaredRoute {
  method: string;
  path: string;
  surface: 'api' | 'page';
}

export const routeKey = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

/** The parts of Express 5's router stack (the `router` package) the walk reads. */
interface StackLayer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: StackLayer[] };
}

function walkStack(stack: StackLayer[], prefix: string, found: DeclaredRoute[]) {
  for (const layer of stack) {
    if (layer.route) {
      if (typeof layer.route.path !== 'string') throw new Error(`Route with a non-string path under ${prefix}: cannot fuzz it`);
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') found.push({ method: method.toUpperCase(), path: prefix + layer.route.path, surface: 'api' });
      }
    } else if (layer.handle?.stack) {
      // A nested router: mounted with use(), where '/' adds nothing to the path.
      if (typeof layer.rawPath !== 'string') throw new Error(`Router mounted on a non-string path under ${prefix}: cannot fuzz it`);
      walkStack(layer.handle.stack, prefix + (layer.rawPath === '/' ? '' : layer.rawPath), found);
    }
  }
}

/** Every route of /api, read from the router the server mounts, so a new endpoint is fuzzed (or flagged) at once. */
export function declaredApiRoutes(): DeclaredRoute[] {
  const found: DeclaredRoute[] = [];
  walkStack((createApiRouter(apiPlumbing) as unknown as { stack: StackLayer[] }).stack, '/api', found);
  const unique = new Map(found.map((route) => [routeKey(route), route]));
  return [...unique.values()];
}

function walkPages(table: RouteObject[], prefix: string, found: DeclaredRoute[]) {
  for (const route of table) {
    const here = route.path === undefined ? prefix : route.path.startsWith('/') ? route.path : `${prefix.replace(/\/$/, '')}/${route.path}`;
    if (route.path !== undefined || route.index) found.push({ method: 'GET', path: here || '/', surface: 'page' });
    if (route.children) walkPages(route.children, here, found);
  }
}

/** Every server-rendered page, read from the one route table the server renders with. */
function declaredPageRoutes(): DeclaredRoute[] {
  const found: DeclaredRoute[] = [];
  walkPages(pageRouteTable, '', found);
  const unique = new Map(found.map((route) => [routeKey(route), route]));
  return [...unique.values()];
}

export function declaredRoutes(): DeclaredRoute[] {
  return [...declaredApiRoutes(), ...declaredPageRoutes()];
}

/** `:name` parameters of a pattern, in order. */
export const paramsOf = (pattern: string): string[] => [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!);
