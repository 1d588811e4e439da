import type { Knex } from 'knex';

const RETRYABLE = new Set(['ER_LOCK_DEADLOCK', 'SQLITE_BUSY']);
const ATTEMPTS = 3;

/**
 * A transaction of database work only, run again when the database chose it as a deadlock victim (InnoDB may do
 * so under gap locks even though owners are locked in a fixed order; MySQL's advice is to retry). Work with side
 * effects outside the database (moving files) must not use this.
 */
export async function retryingTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
    }
  }
}
