import type { Knex } from 'knex';
import type { AppContext } from '../context.js';

const isDeadlock = (error: unknown) => (error as { code?: string }).code === 'ER_LOCK_DEADLOCK';

/**
 * A write transaction, retried when InnoDB picks it as a deadlock victim (overlapping writers can lock the same
 * posting ranges or the shared counter rows in different orders); the work is re-run from the start.
 */
export async function inTransaction<T>(ctx: AppContext, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.transaction(work);
    } catch (error) {
      if (!isDeadlock(error) || attempt >= 3) throw error;
      ctx.log.warn({ attempt }, 'records write hit a deadlock; retrying');
    }
  }
}
