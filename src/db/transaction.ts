import type { Knex } from 'knex';

/** Where a retry is reported (the app's pino logger fits). */
interface RetryLog {
  warn(obj: object, msg: string): void;
}

/** What a transaction runs on: the database (or a transaction to join), and optionally where retries are logged. */
export interface TransactionScope {
  db: Knex | Knex.Transaction;
  log?: RetryLog;
}

/** Attempts in all, the first included: enough to ride out a collision, few enough to fail fast when stuck. */
export const TRANSACTION_ATTEMPTS = 3;
/** The first retry waits up to this long; each later one up to twice the previous bound. */
const BACKOFF_MS = 20;

/**
 * Failures that say "the same transaction may well succeed if run again", and nothing else:
 * - ER_LOCK_DEADLOCK: InnoDB chose this transaction as a deadlock victim and rolled it back (overlapping writers
 *   lock posting ranges, counter rows or owner rows in different orders; MySQL's advice is to retry);
 * - ER_LOCK_WAIT_TIMEOUT: another transaction held a lock past innodb_lock_wait_timeout;
 * - SQLITE_BUSY (and its extended codes, e.g. SQLITE_BUSY_SNAPSHOT): another connection held the write lock past
 *   busy_timeout, or wrote since this transaction's snapshot, which only a fresh transaction can get past.
 */
export function isTransientTransactionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT' || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_');
}

export const isTransaction = (db: Knex | Knex.Transaction): db is Knex.Transaction => Boolean((db as Knex.Transaction).isTransaction);

/** Full jitter: two writers that collided should not collide again on the same beat. */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.random() * BACKOFF_MS * 2 ** (attempt - 1)));

/**
 * The one way to open a transaction: runs `work` in a transaction and commits, and when the database fails it
 * for a transient reason (see isTransientTransactionError) rolls back and runs `work` again from the start, up to
 * TRANSACTION_ATTEMPTS in all, after a short random pause. Any other error is thrown at once.
 *
 * So `work` must be safe to run again: its database writes are rolled back with the attempt, but anything else it
 * does before the commit (moving a file, changing a variable outside it) must be idempotent or undone by the caller.
 * Given a transaction instead of the database, `work` joins it and is not retried here: a deadlock ends the whole
 * transaction, so only whoever opened it can run it again.
 */
export async function withTransaction<T>(scope: TransactionScope, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const { db, log } = scope;
  if (isTransaction(db)) return work(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isTransientTransactionError(error)) throw error;
      log?.warn({ attempt, code: (error as { code: string }).code }, 'transaction failed on a lock; running it again');
      await pause(attempt);
    }
  }
}
