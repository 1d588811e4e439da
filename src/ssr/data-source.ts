import type { Request } from 'express';
import { matchPath } from 'react-router';
import { allReads } from '../api/router.js';
import type { ReadRoute } from '../api/reads.js';
import { sessionInfo } from '../api/core/auth.js';
import { notFound, unauthorized } from '../services/errors.js';
import type { DataSource } from '../../views/data/source.js';
import { BoundedCache } from '../shared/bounded-cache.js';
import { localeOf } from './locale.js';

type ReadMatch = { read: ReadRoute; params: Record<string, string | undefined> } | null;

/**
 * Which read serves a path, remembered per path: react-router's matchPath compiles its pattern on every call, and
 * a page asks for its data by the same few paths again and again. Bounded, since ids make paths many.
 */
const readByPathname = new BoundedCache<string, ReadMatch>(1000);

function findRead(pathname: string): ReadMatch {
  return readByPathname.get(pathname, () => {
    for (const read of allReads) {
      const match = matchPath({ path: read.path, end: true }, pathname);
      if (match) return { read, params: match.params };
    }
    return null;
  });
}

/** The in-process DataSource: the same read handlers /api serves, called without an HTTP hop. */
export function serverDataSource(req: Request): DataSource {
  return {
    session: () => sessionInfo(req),
    async get<T>(target: string) {
      if (!req.user) throw unauthorized();
      const url = new URL(target, 'http://internal');
      const found = findRead(url.pathname);
      if (!found) throw notFound(`No read route for ${url.pathname}`);
      return (await found.read.handler({
        ctx: req.ctx,
        user: req.user,
        params: { ...found.params },
        query: url.searchParams,
        locale: localeOf(req),
      })) as T;
    },
  };
}
