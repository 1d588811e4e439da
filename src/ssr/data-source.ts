import type { Request } from 'express';
import { matchPath } from 'react-router';
import { allReads } from '../api/router.js';
import { sessionInfo } from '../api/core/auth.js';
import { notFound, unauthorized } from '../services/errors.js';
import type { DataSource } from '../../views/data/source.js';
import { localeOf } from './locale.js';

/** The in-process DataSource: the same read handlers /api serves, called without an HTTP hop. */
export function serverDataSource(req: Request): DataSource {
  return {
    session: () => sessionInfo(req),
    async get<T>(target: string) {
      if (!req.user) throw unauthorized();
      const url = new URL(target, 'http://internal');
      for (const read of allReads) {
        const match = matchPath({ path: read.path, end: true }, url.pathname);
        if (match) {
          return (await read.handler({
            ctx: req.ctx,
            user: req.user,
            params: match.params,
            query: url.searchParams,
            locale: localeOf(req),
          })) as T;
        }
      }
      throw notFound(`No read route for ${url.pathname}`);
    },
  };
}
