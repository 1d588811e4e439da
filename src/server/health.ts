import { Router } from 'express';
import type { Knex } from 'knex';
import { PACER_VERSION } from '@shared/release.js';

/** How old the remembered name of the latest applied migration may get before a liveness answer reads it again. */
const MIGRATION_RECHECK_MS = 60_000;

/**
 * The name of the latest applied migration, read in the background: liveness answers with what is known (null
 * before the first read, or while the database cannot say) and never waits for the database.
 */
function latestMigrationWatch(db: Knex) {
  let name: string | null = null;
  let readAt = -Infinity;
  let reading = false;
  const read = () => {
    // Until a name is known (the server may be migrating as it starts), every check asks; then once a minute.
    if (reading || (name !== null && Date.now() - readAt < MIGRATION_RECHECK_MS)) return;
    reading = true;
    db('knex_migrations')
      .orderBy('id', 'desc')
      .first('name')
      .then(
        (row: { name: string } | undefined) => {
          name = row?.name ?? null;
          readAt = Date.now();
        },
        // Unmigrated or unreachable: say nothing, and ask again on the next liveness check.
        () => undefined,
      )
      .finally(() => {
        reading = false;
      });
  };
  read();
  return {
    current: () => {
      read();
      return name;
    },
  };
}

/**
 * Liveness never waits for the database, and says which release runs on which schema; readiness checks the
 * database, with a short deadline, and answers 503 when it cannot.
 */
export function healthRouter(db: Knex, readyTimeoutMs = 2000): Router {
  const router = Router();
  const migration = latestMigrationWatch(db);
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', version: PACER_VERSION, migration: migration.current() });
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
