import type { Router } from 'express';
import { createApiRouter } from '@api/router.js';

export interface ApiRoute {
  method: string;
  /** As Express matches it, under /api (e.g. `/api/events/:id`). */
  path: string;
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every route the /api router serves, read from the router itself, so a route added anywhere is in the list. */
export function apiRoutes(router: Router = createApiRouter()): ApiRoute[] {
  const routes: ApiRoute[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) for (const method of Object.keys(layer.route.methods)) routes.push({ method, path: `/api${layer.route.path}` });
      else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((router as unknown as { stack: Layer[] }).stack);
  return routes;
}
