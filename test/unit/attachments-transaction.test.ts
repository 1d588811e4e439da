import { describe, expect, it } from 'vitest';
import { retryingTransaction } from '../../src/services/attachments/transaction.js';
import { createTestDatabase } from '../helpers/db.js';

describe('retryingTransaction', () => {
  it('runs the work again after a deadlock, at most three times, and passes other errors straight through', async () => {
    const database = await createTestDatabase({ migrate: false });
    try {
      let calls = 0;
      const deadlock = Object.assign(new Error('Deadlock found'), { code: 'ER_LOCK_DEADLOCK' });
      await expect(
        retryingTransaction(database.db, async () => {
          calls++;
          if (calls < 3) throw deadlock;
          return 'done';
        }),
      ).resolves.toBe('done');
      expect(calls).toBe(3);

      calls = 0;
      await expect(
        retryingTransaction(database.db, async () => {
          calls++;
          throw deadlock;
        }),
      ).rejects.toBe(deadlock);
      expect(calls).toBe(3);

      calls = 0;
      const other = new Error('boom');
      await expect(
        retryingTransaction(database.db, async () => {
          calls++;
          throw other;
        }),
      ).rejects.toBe(other);
      expect(calls).toBe(1);
    } finally {
      await database.destroy();
    }
  });
});
