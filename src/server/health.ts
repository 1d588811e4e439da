import { Router } from 'express';
import type { Knex } from 'knex';

/** Liveness never touches the database; readiness does, with a short deadline, and answers 503 when it cannot. */
export function healthRouter(db: Knex, readyTimeoutMs = 2000): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (req, res) => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        db.raw('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('database check timed out')), readyTimeoutMs);
        }),
      ]);
      res.json({ status: 'ready' });
    } catch (error) {
      req.log.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ status: 'unavailable', message: 'Database unreachable' });
    } finally {
      clearTimeout(timer);
    }
  });
  return router;
}
