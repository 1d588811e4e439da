import type { Knex } from 'knex';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase } from '@db/knex.js';
import { isTransientTransactionError, TRANSACTION_ATTEMPTS, withTransaction } from '@db/transaction.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

const deadlock = () =>
  Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), { code: 'ER_LOCK_DEADLOCK' });

/** A table of counters of our own, so the tests need no migration and see exactly what each attempt left behind. */
async function createProbe(db: Knex): Promise<void> {
  await db.schema.createTable('probe', (table) => {
    table.integer('id').primary();
    table.integer('n').notNullable();
  });
  await db('probe').insert([
    { id: 1, n: 0 },
    { id: 2, n: 0 },
  ]);
}

const valueOf = async (db: Knex, id: number) => Number(((await db('probe').where({ id }).first('n')) as { n: number }).n);

describe('withTransaction', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase({ migrate: false });
    await createProbe(database.db);
  });
  afterEach(async () => database.destroy());

  it('runs the work again after a transient failure, with the failed attempt rolled back', async () => {
    const warnings: object[] = [];
    let calls = 0;
    const result = await withTransaction({ db: database.db, log: { warn: (obj) => warnings.push(obj) } }, async (trx) => {
      calls++;
      await trx('probe').where({ id: 1 }).increment('n', 1);
      if (calls < TRANSACTION_ATTEMPTS) throw deadlock();
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls).toBe(TRANSACTION_ATTEMPTS);
    // Only the attempt that committed counts.
    expect(await valueOf(database.db, 1)).toBe(1);
    expect(warnings).toEqual([
      { attempt: 1, code: 'ER_LOCK_DEADLOCK' },
      { attempt: 2, code: 'ER_LOCK_DEADLOCK' },
    ]);
  });

  it('gives up after its bound of attempts and throws the last failure, leaving nothing written', async () => {
    let calls = 0;
    const last = deadlock();
    await expect(
      withTransaction({ db: database.db }, async (trx) => {
        calls++;
        await trx('probe').where({ id: 1 }).increment('n', 1);
        throw calls === TRANSACTION_ATTEMPTS ? last : deadlock();
      }),
    ).rejects.toBe(last);
    expect(calls).toBe(TRANSACTION_ATTEMPTS);
    expect(await valueOf(database.db, 1)).toBe(0);
  });

  it('never runs the work again after a non-transient error (here the database refusing a duplicate key)', async () => {
    let calls = 0;
    const failure = withTransaction({ db: database.db }, async (trx) => {
      calls++;
      await trx('probe').insert({ id: 1, n: 5 });
    });
    await expect(failure).rejects.toThrow();
    expect(isTransientTransactionError(await failure.catch((error: unknown) => error))).toBe(false);
    expect(calls).toBe(1);
  });

  it('joins a transaction it is given, and leaves retrying to whoever opened it', async () => {
    let outer = 0;
    let inner = 0;
    await withTransaction({ db: database.db }, async (trx) => {
      outer++;
      await withTransaction({ db: trx }, async (joined) => {
        inner++;
        // The very same transaction, not a savepoint inside it.
        expect(joined).toBe(trx);
        await joined('probe').where({ id: 2 }).increment('n', 1);
        if (outer === 1) throw deadlock();
      });
    });
    expect({ outer, inner }).toEqual({ outer: 2, inner: 2 });
    expect(await valueOf(database.db, 2)).toBe(1);
  });

  it.skipIf(testDialect !== 'sqlite')(
    'SQLite: gets past a write another connection committed since its snapshot (SQLITE_BUSY_SNAPSHOT)',
    async () => {
      const other = createDatabase({ url: database.url });
      try {
        let calls = 0;
        await withTransaction({ db: database.db }, async (trx) => {
          calls++;
          const seen = await valueOf(trx, 1);
          // Another process writes between this transaction's read and its write, once.
          if (calls === 1) await other('probe').where({ id: 1 }).update({ n: 100 });
          await trx('probe')
            .where({ id: 1 })
            .update({ n: seen + 1 });
        });
        expect(calls).toBe(2);
        // The retry read the other process's value: nothing was lost.
        expect(await valueOf(database.db, 1)).toBe(101);
      } finally {
        await other.destroy();
      }
    },
  );

  it.skipIf(testDialect !== 'mysql')(
    'MariaDB: a real deadlock between two transactions ends with both committed, the victim run twice',
    async () => {
      const attempts = { a: 0, b: 0 };
      let arrive!: () => void;
      let arrived = 0;
      const bothHoldTheirFirstLock = new Promise<void>((resolve) => {
        arrive = () => {
          if (++arrived === 2) resolve();
        };
      });
      // Each locks one row, waits until the other holds the other row, then wants that one: a lock cycle.
      const crossing = (name: 'a' | 'b', first: number, second: number) =>
        withTransaction({ db: database.db }, async (trx) => {
          attempts[name]++;
          await trx('probe').where({ id: first }).increment('n', 1);
          if (attempts[name] === 1) {
            arrive();
            await bothHoldTheirFirstLock;
          }
          await trx('probe').where({ id: second }).increment('n', 1);
        });
      await Promise.all([crossing('a', 1, 2), crossing('b', 2, 1)]);
      expect([attempts.a, attempts.b].sort()).toEqual([1, 2]);
      // Each transaction's two increments landed exactly once: the victim's first attempt was rolled back whole.
      expect(await valueOf(database.db, 1)).toBe(2);
      expect(await valueOf(database.db, 2)).toBe(2);
    },
  );

  it.skipIf(testDialect !== 'mysql')('MariaDB: runs again after waiting out a lock another transaction held too long', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const holder = database.db.transaction(async (trx) => {
      await trx('probe').where({ id: 1 }).forUpdate().first();
      holding();
      await released;
    });
    await held;
    let calls = 0;
    try {
      await withTransaction({ db: database.db }, async (trx) => {
        calls++;
        // The holder lets go only once the first attempt has given up waiting.
        if (calls === 2) release();
        await trx.raw('SET SESSION innodb_lock_wait_timeout = 1');
        await trx('probe').where({ id: 1 }).increment('n', 1);
      });
    } finally {
      release();
      await holder;
    }
    expect(calls).toBe(2);
    expect(await valueOf(database.db, 1)).toBe(1);
  });
});

describe('isTransientTransactionError', () => {
  it('names lock conflicts of both databases as transient, and nothing else', () => {
    for (const code of ['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT']) {
      expect(isTransientTransactionError(Object.assign(new Error(code), { code }))).toBe(true);
    }
    for (const error of [
      Object.assign(new Error('dup'), { code: 'ER_DUP_ENTRY' }),
      Object.assign(new Error('c'), { code: 'SQLITE_CONSTRAINT' }),
      new Error('plain'),
      null,
      'ER_LOCK_DEADLOCK',
    ]) {
      expect(isTransientTransactionError(error)).toBe(false);
    }
  });
});
