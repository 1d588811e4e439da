import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { AppContext } from '@services/context.js';
import { runSync } from '@services/sync/service.js';
import { FakeWordPress } from '../fakes/wordpress.js';
import { testServiceContext } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

const cli = { userId: null, source: 'cli', role: 'admin' } as const;

/** Synced text goes through the text rule: a post with a lone surrogate or NUL is a reported bad item, not a crash or U+FFFD. */
describe(`WordPress sync and the text rule (${process.env.TEST_DATABASE_URL ? 'MariaDB' : 'SQLite'})`, () => {
  let database: TestDatabase;
  let wp: FakeWordPress;
  let ctx: AppContext;

  beforeAll(async () => {
    database = await createTestDatabase();
    wp = await new FakeWordPress({
      posts: {
        events: [
          { id: 1, title: 'Harbour \ud83c Half', modifiedGmt: '2026-06-01T00:00:00' },
          { id: 2, title: 'Bay Run', modifiedGmt: '2026-06-01T00:00:00', meta: { location_state: 'Nar\u0000nia', run_type: ['10K'] } },
          { id: 3, title: 'Coast Trail', modifiedGmt: '2026-06-01T00:00:00', meta: { run_type: ['5K', '\udc00x'] } },
          { id: 4, title: 'Sunrise 🏃 Run', modifiedGmt: '2026-06-01T00:00:00', meta: { entry_cost: '🏃‍♀️ free', run_type: ['🏃 5K'] } },
        ],
      },
    }).start();
    ctx = testServiceContext(database, { env: { ...wp.env, HTTP_TIMEOUT_MS: '2000' } });
  });
  afterAll(async () => {
    await wp.close();
    await database.destroy();
  });

  it('skips and reports each bad post, stores the good one intact, and records the run', async () => {
    const result = await runSync(ctx, 'events', { actor: cli });
    const problems = [
      'Event with WordPress id 1: name contains an invalid character; skipped',
      "Event 'Bay Run' (WordPress id 2): state contains an invalid character; skipped",
      "Event 'Coast Trail' (WordPress id 3): run type contains an invalid character; skipped",
    ];
    expect(result).toMatchObject({ success: true, created: 1, failed: 3, errors: problems });
    const rows = await database.db('events').select('wordpressEventId', 'eventName', 'entryCost', 'runType');
    expect(rows.map((row: Record<string, unknown>) => decodeRow(columnKinds.events, row))).toEqual([
      { wordpressEventId: 4, eventName: 'Sunrise 🏃 Run', entryCost: '🏃‍♀️ free', runType: ['5k'] },
    ]);
    const run = decodeRow<{ success: boolean; failed: number; errors: string[] }>(
      columnKinds.sync_runs,
      await database.db('sync_runs').orderBy('id', 'desc').first(),
    );
    expect(run).toMatchObject({ success: true, failed: 3, errors: problems });
  });
});
