import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Knex } from 'knex';
import { decodeRow, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { dialectOfDb } from '@db/knex.js';
import type { Clock } from '../context.js';

/**
 * Keeps two runs of the same sync from overlapping, across processes (docs/decisions/0041-sync-lock.md).
 * MySQL/MariaDB: GET_LOCK(name, 0) on a connection taken out of the pool for the whole run; the server frees
 * the lock when that connection ends, so a killed run never leaves it behind. SQLite: a row in sync_locks with
 * a heartbeat; a row whose heartbeat is older than `staleMs`, or whose holder process on this host is gone,
 * is taken over.
 */
export interface HeldLock {
  release(): Promise<void>;
}

export interface LockOptions {
  clock: Clock;
  staleMs?: number;
  heartbeatMs?: number;
}

const DEFAULT_STALE_MS = 10 * 60_000;

/** MySQL lock names are server-wide (max 64 characters), so they carry the database name. */
async function mysqlLockName(db: Knex, name: string): Promise<string> {
  const [rows] = (await db.raw('SELECT DATABASE() AS db')) as [Array<{ db: string | null }>];
  const full = `pacer:${rows[0]?.db ?? ''}:${name}`;
  return full.length <= 64 ? full : `pacer:${createHash('sha256').update(full).digest('hex').slice(0, 56)}`;
}

async function acquireMysql(db: Knex, name: string): Promise<HeldLock | null> {
  const lockName = await mysqlLockName(db, name);
  // The lock belongs to one connection, so that connection is pinned until release.
  const connection: unknown = await db.client.acquireConnection();
  let held = false;
  try {
    const [rows] = (await db.raw('SELECT GET_LOCK(?, 0) AS got', [lockName]).connection(connection)) as [
      Array<{ got: number | string | null }>,
    ];
    held = Number(rows[0]?.got) === 1;
  } finally {
    if (!held) await db.client.releaseConnection(connection);
  }
  if (!held) return null;
  return {
    async release() {
      try {
        await db.raw('SELECT RELEASE_LOCK(?) AS released', [lockName]).connection(connection);
      } finally {
        await db.client.releaseConnection(connection);
      }
    },
  };
}

function holderIsGone(holder: string): boolean {
  const [host, pid] = holder.split('|');
  if (host !== hostname() || !pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'ESRCH';
  }
}

const isUniqueViolation = (error: unknown) =>
  /UNIQUE constraint failed|SQLITE_CONSTRAINT/i.test(String((error as { message?: string }).message ?? error));

async function acquireRow(db: Knex, name: string, options: LockOptions): Promise<HeldLock | null> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const holder = `${hostname()}|${process.pid}|${randomUUID()}`;
  const existing = await db('sync_locks').where({ name }).first();
  if (existing) {
    const row = decodeRow<{ holder: string; heartbeatAt: string }>(columnKinds.sync_locks, existing);
    const stale = options.clock.now().getTime() - Date.parse(row.heartbeatAt) > staleMs;
    if (!stale && !holderIsGone(row.holder)) return null;
    // Only the row just judged stale is removed: a fresh holder that took over meanwhile keeps its lock.
    await db('sync_locks').where({ name, holder: row.holder }).delete();
  }
  const now = encodeTimestamp(options.clock.now());
  try {
    await db('sync_locks').insert({ name, holder, acquiredAt: now, heartbeatAt: now });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
  const beat = setInterval(
    () => {
      db('sync_locks')
        .where({ name, holder })
        .update({ heartbeatAt: encodeTimestamp(options.clock.now()) })
        .catch(() => undefined);
    },
    options.heartbeatMs ?? Math.max(1000, Math.floor(staleMs / 5)),
  );
  beat.unref();
  return {
    async release() {
      clearInterval(beat);
      await db('sync_locks').where({ name, holder }).delete();
    },
  };
}

/** The lock, or null at once when another run holds it. */
export function tryAcquireLock(db: Knex, name: string, options: LockOptions): Promise<HeldLock | null> {
  return dialectOfDb(db) === 'mysql' ? acquireMysql(db, name) : acquireRow(db, name, options);
}
