import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliActor } from '@services/context.js';
import { createRecord, deleteRecord } from '@services/records/service.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { runPacer } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

describe('pacer trash purge', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  const run = (...argv: string[]) => runPacer({ DATABASE_URL: t.url }, argv);

  it('removes only what is older than the cut-off, and a dry run removes nothing', async () => {
    // Deleted "two days ago" by the service's clock; the CLI runs on the real clock, now.
    const ctx = {
      db: t.db,
      log: pino({ level: 'silent' }),
      config: testConfig(),
      clock: new FakeClock(new Date(Date.now() - 2 * 86_400_000)),
    };
    const brand = await createRecord(ctx, cliActor(), 'brand', { brandName: 'Old Brand' });
    await deleteRecord(ctx, cliActor(), 'brand', String(brand.id));

    expect(await run('trash', 'purge')).toMatchObject({ code: 0, out: 'Removed 0 deleted record(s) and 0 stored file(s).\n' });
    const dry = await run('trash', 'purge', '--older-than', '1d', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain(`Would remove brand ${brand.id} "Old Brand" deleted`);
    expect(dry.out).toContain('Would remove 1 deleted record(s) and 0 stored file(s).');
    expect(await t.db('deleted_items').count({ n: '*' }).first()).toMatchObject({ n: 1 });

    expect((await run('trash', 'purge', '--older-than', '36h')).out).toContain('Removed 1 deleted record(s)');
    expect(await t.db('deleted_items').count({ n: '*' }).first()).toMatchObject({ n: 0 });
    // A name is printed with its control characters made visible, never sent to the terminal.
    const sneaky = await createRecord(ctx, cliActor(), 'brand', { brandName: 'Sneaky\u001b]52;c;ZXZpbA==\u0007' });
    await deleteRecord(ctx, cliActor(), 'brand', String(sneaky.id));
    const listed = await run('trash', 'purge', '--older-than', '1d', '--dry-run');
    expect(listed.out).toContain(`Would remove brand ${sneaky.id} "Sneaky\\x1b]52;c;ZXZpbA==\\x07" deleted`);
    expect(listed.out).not.toContain('\u001b');
    const json = await run('trash', 'purge', '--older-than', '1d', '--dry-run', '--json');
    expect(JSON.parse(json.out)).toMatchObject({
      dryRun: true,
      files: 0,
      items: [expect.objectContaining({ name: 'Sneaky\u001b]52;c;ZXZpbA==\u0007' })],
    });
    const bad = await run('trash', 'purge', '--older-than', 'soon');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--older-than must be a number of days or hours, such as 30d or 12h');
  });
});
