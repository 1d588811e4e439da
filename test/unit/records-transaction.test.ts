import type { Knex } from 'knex';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/services/context.js';
import { inTransaction } from '../../src/services/records/transaction.js';
import { testConfig } from '../helpers/app.js';

/** A database whose transactions fail with the given errors, in turn, before succeeding. */
function contextFailing(errors: unknown[]): { ctx: AppContext; attempts: () => number } {
  let attempts = 0;
  const db = {
    async transaction<T>(work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
      attempts++;
      const error = errors.shift();
      if (error) throw error;
      return work({} as Knex.Transaction);
    },
  } as unknown as Knex;
  return { ctx: { db, log: pino({ level: 'silent' }), config: testConfig(), clock: { now: () => new Date() } }, attempts: () => attempts };
}

const deadlock = Object.assign(new Error('Deadlock found when trying to get lock'), { code: 'ER_LOCK_DEADLOCK' });

describe('records write transactions', () => {
  it('re-run the work when chosen as a deadlock victim', async () => {
    const { ctx, attempts } = contextFailing([deadlock, deadlock]);
    expect(await inTransaction(ctx, async () => 'done')).toBe('done');
    expect(attempts()).toBe(3);
  });

  it('give up after three deadlocks, and never retry other errors', async () => {
    const stuck = contextFailing([deadlock, deadlock, deadlock, deadlock]);
    await expect(inTransaction(stuck.ctx, async () => 'never')).rejects.toBe(deadlock);
    expect(stuck.attempts()).toBe(3);
    const other = contextFailing([new Error('duplicate')]);
    await expect(inTransaction(other.ctx, async () => 'never')).rejects.toThrow('duplicate');
    expect(other.attempts()).toBe(1);
  });
});
