import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';

export type Dialect = 'sqlite' | 'mysql';

export interface DatabaseOptions {
  url: string;
  acquireTimeoutMs?: number;
  poolMax?: number;
  /** Where Knex's own warnings go (it writes to the console otherwise). */
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

function knexLogger(log: DatabaseOptions['log']) {
  if (!log) return { warn: () => {}, error: () => {}, deprecate: () => {}, debug: () => {} };
  return {
    warn: (message: unknown) => log.warn({ source: 'knex' }, String(message)),
    error: (message: unknown) => log.error({ source: 'knex' }, String(message)),
    deprecate: (method: unknown, alternative: unknown) =>
      log.warn({ source: 'knex' }, `${String(method)} is deprecated: use ${String(alternative)}`),
    debug: () => {},
  };
}

export function dialectOf(url: string): Dialect {
  return url.startsWith('sqlite:') ? 'sqlite' : 'mysql';
}

/** `sqlite:data/pacer.sqlite`, `sqlite::memory:` or `sqlite:/abs/path.sqlite`. */
function sqliteFilename(url: string): string {
  const rest = url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
  return rest === ':memory:' ? ':memory:' : path.resolve(rest);
}

export function mysqlConnection(url: string): Knex.MySql2ConnectionConfig {
  const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: parsed.pathname.replace(/^\//, '') || undefined,
    charset: 'utf8mb4',
    // Dates travel as strings so a DATE never shifts by a time zone and DATETIMEs stay UTC.
    dateStrings: true,
    timezone: 'Z',
    supportBigNumbers: true,
  };
}

export function createDatabase(options: DatabaseOptions): Knex {
  const acquireConnectionTimeout = options.acquireTimeoutMs ?? 5000;
  if (dialectOf(options.url) === 'sqlite') {
    const filename = sqliteFilename(options.url);
    if (filename !== ':memory:') mkdirSync(path.dirname(filename), { recursive: true });
    return knexFactory({
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      acquireConnectionTimeout,
      log: knexLogger(options.log),
      // One connection: SQLite serialises writers anyway, and a single handle keeps transactions simple.
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma: (sql: string) => unknown }, done: (err: Error | null, conn: unknown) => void) {
          conn.pragma('journal_mode = WAL');
          conn.pragma('foreign_keys = ON');
          conn.pragma('busy_timeout = 5000');
          done(null, conn);
        },
      },
    });
  }
  return knexFactory({
    client: 'mysql2',
    connection: mysqlConnection(options.url),
    acquireConnectionTimeout,
    log: knexLogger(options.log),
    pool: {
      min: 0,
      max: options.poolMax ?? 10,
      afterCreate(
        conn: { query: (sql: string, cb: (err: Error | null) => void) => void },
        done: (err: Error | null, conn: unknown) => void,
      ) {
        // The /*M! part runs on MariaDB only (MySQL reads it as a comment): a search's candidate ids come as a long
        // IN list, which MariaDB would otherwise turn into a temporary table to join, sorting every candidate for
        // the page instead of walking the primary key's ranges newest first and stopping at the page.
        conn.query(
          "SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION', time_zone = '+00:00' /*M!100318 , in_predicate_conversion_threshold = 0 */, NAMES utf8mb4 COLLATE utf8mb4_unicode_ci",
          (err) => done(err, conn),
        );
      },
    },
  });
}

export function dialectOfDb(db: Knex): Dialect {
  const client = db.client.config.client;
  return client === 'better-sqlite3' || client === 'sqlite3' ? 'sqlite' : 'mysql';
}

/** Fails start-up when MySQL would silently truncate data or mangle 4-byte characters. */
export async function assertDatabaseSafety(db: Knex): Promise<void> {
  if (dialectOfDb(db) !== 'mysql') return;
  const [rows] = (await db.raw('SELECT @@SESSION.sql_mode AS mode, @@SESSION.character_set_connection AS charset')) as [
    Array<{ mode: string; charset: string }>,
  ];
  const row = rows[0];
  if (!row || !/STRICT_(ALL|TRANS)_TABLES/.test(row.mode)) {
    throw new Error(`MySQL sql_mode is not strict (${row?.mode ?? 'unknown'})`);
  }
  if (row.charset !== 'utf8mb4') throw new Error(`MySQL connection charset is ${row.charset}, expected utf8mb4`);
}

/** The part of the connection pool (tarn) that says whether any query still holds or waits for a connection. */
interface PoolActivity {
  numUsed(): number;
  numPendingAcquires(): number;
}

/** Connections in use and acquires waiting for one, right now (zeros before the pool exists). */
export function poolActivityOf(db: Knex): { used: number; pending: number } {
  const pool = (db.client as { pool?: PoolActivity }).pool;
  return { used: pool?.numUsed() ?? 0, pending: pool?.numPendingAcquires() ?? 0 };
}

/** What the pool tells about each connection acquire: how long it waited, or that it gave up at the acquire timeout. */
export interface PoolAcquireWatcher {
  acquired(waitSeconds: number): void;
  timedOut(): void;
}

interface PoolEvents {
  on(event: 'acquireRequest' | 'acquireSuccess', listener: (eventId: number) => void): void;
  on(event: 'acquireFail', listener: (eventId: number, error: unknown) => void): void;
}

/** Reports every connection acquire of this database's pool to `watcher` (the metrics), from now on. */
export function watchPoolAcquires(db: Knex, watcher: PoolAcquireWatcher): void {
  const pool = (db.client as { pool?: PoolEvents }).pool;
  if (!pool) return;
  const waitingSince = new Map<number, number>();
  pool.on('acquireRequest', (eventId) => waitingSince.set(eventId, performance.now()));
  pool.on('acquireSuccess', (eventId) => {
    const since = waitingSince.get(eventId);
    waitingSince.delete(eventId);
    if (since !== undefined) watcher.acquired((performance.now() - since) / 1000);
  });
  pool.on('acquireFail', (eventId, error) => {
    waitingSince.delete(eventId);
    // tarn's TimeoutError (knex turns it into a KnexTimeoutError for the caller); a pool being destroyed is no timeout.
    if ((error as Error | undefined)?.constructor?.name === 'TimeoutError') watcher.timedOut();
  });
}

/**
 * Closes the pool once no query holds or waits for a connection, or at the deadline. A request whose client hung
 * up is no longer seen by the HTTP server's drain, yet its handler may still be mid-transaction: closing the pool
 * under it would abort work that was about to finish. Resolves false when the deadline forced the close (then it
 * waits at most a second more for the pool to let go).
 */
export async function closeWhenIdle(db: Knex, deadlineMs: number): Promise<boolean> {
  const pool = (db.client as { pool?: PoolActivity }).pool;
  const deadline = Date.now() + deadlineMs;
  const busy = () => Boolean(pool && pool.numUsed() + pool.numPendingAcquires() > 0);
  while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!busy()) {
    await db.destroy();
    return true;
  }
  // The pool's destroy waits for every borrowed connection, so work that never ends would keep the process alive.
  const destroyed = db.destroy();
  destroyed.catch(() => {});
  await Promise.race([destroyed, new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  return false;
}
