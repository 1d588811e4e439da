import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savedImportMapping } from '@services/imports/general/mappings.js';
import { FakeClock, testConfig } from '../helpers/app.js';
import { runPacer } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

describe('pacer import TYPE FILE saves its mapping for /imports/new', () => {
  let database: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-import-mapping-'));
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the mapping of a real run (owner column included), not of a dry run', async () => {
    const ctx = {
      db: database.db,
      log: pino({ level: 'silent' }),
      config: testConfig({ DATABASE_URL: database.url }),
      clock: new FakeClock(),
    };
    const env = { DATABASE_URL: database.url };
    writeFileSync(path.join(dir, 'brands.csv'), 'Brand,First Name,Last Name,Email\nAcme,Jo,Ray,jo@acme.test\n');
    expect((await runPacer(env, ['import', 'brands', path.join(dir, 'brands.csv')])).code).toBe(0);
    const csv = path.join(dir, 'contacts.csv');
    writeFileSync(csv, 'First,Last,Mail,Company\nAna,Lima,ana@acme.test,Acme\n');
    const map = path.join(dir, 'map.json');
    writeFileSync(map, JSON.stringify({ First: 'firstName', Last: 'lastName', Mail: 'email' }));
    const args = ['import', 'contacts', csv, '--map', map, '--owner-type', 'brand', '--owner-column', 'Company'];
    const header = ['First', 'Last', 'Mail', 'Company'];

    expect((await runPacer(env, [...args, '--dry-run'])).code).toBe(0);
    expect(await savedImportMapping(ctx, 'contact', header)).toBeNull();

    const real = await runPacer(env, args);
    expect(real.code, real.err).toBe(0);
    expect(await savedImportMapping(ctx, 'contact', header)).toEqual({
      First: 'firstName',
      Last: 'lastName',
      Mail: 'email',
      Company: 'entityId',
    });
  });
});
