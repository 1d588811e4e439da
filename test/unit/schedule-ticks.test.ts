import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Knex } from 'knex';
import { createDatabase } from '@db/knex.js';
import { takeScheduleTick } from '@services/jobs/queries.js';
import { createTestDatabase, testDialect, type TestDatabase } from '../helpers/db.js';

describe(`SYNC_SCHEDULE ticks in embedded mode (${testDialect})`, () => {
  let database: TestDatabase;
  const others: Knex[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    // Three more pools on the same database stand for three more server processes.
    for (let i = 0; i < 3; i++) others.push(createDatabase({ url: database.url }));
  });
  afterAll(async () => {
    for (const db of others) await db.destroy();
    await database.destroy();
  });

  it('gives each tick to exactly one of the processes that reach it at once', async () => {
    const tick = new Date('2026-11-24T08:30:00.000Z');
    const won = await Promise.all([database.db, ...others].map((db) => takeScheduleTick(db, 'sync-all', tick)));
    expect(won.filter(Boolean)).toHaveLength(1);
    // The next tick is free again, once.
    const next = new Date('2026-11-24T09:00:00.000Z');
    expect(await takeScheduleTick(others[0]!, 'sync-all', next)).toBe(true);
    expect(await takeScheduleTick(others[1]!, 'sync-all', next)).toBe(false);
  });
});
