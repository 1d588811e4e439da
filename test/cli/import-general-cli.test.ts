import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runPacer } from '../helpers/cli-io.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

describe('pacer import TYPE FILE --map (general import)', () => {
  let database: TestDatabase;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(path.join(tmpdir(), 'pacer-import-general-'));
    env = { DATABASE_URL: database.url };
  });
  afterAll(async () => {
    await database.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await database.db('contacts').del();
    await database.db('media').del();
    await database.db('brands').del();
  });

  function file(name: string, text: string) {
    const target = path.join(dir, name);
    writeFileSync(target, text);
    return target;
  }

  it('imports media with a mapping file, reports failed rows and exits 3; a re-run is all unchanged', async () => {
    const csv = file('media.csv', 'Outlet;Site;Junk\nRunner Weekly;https://rw.test;x\n;https://none.test;y\n');
    const map = file('media-map.json', JSON.stringify({ Outlet: 'mediaName', Site: 'Website', Junk: null }));
    const first = await runPacer(env, ['import', 'media', csv, '--map', map]);
    expect(first.code).toBe(3);
    expect(first.out).toContain('Import finished: created 1, updated 0; unchanged 0, skipped 0, failed 1.');
    expect(first.out).toContain('row 3: failed: Media name is required');
    const again = await runPacer(env, ['import', 'media', csv, '--map', map, '--mode', 'upsert', '--key', 'name', '--json']);
    const report = JSON.parse(again.out) as { counts: Record<string, number>; rows: Array<{ row: number; outcome: string }> };
    expect(report.counts).toMatchObject({ created: 0, unchanged: 1, failed: 1 });
    expect(await database.db('media').pluck('mediaName')).toEqual(['Runner Weekly']);
  });

  it('imports contacts with --owner-type and --owner-column, and dry run writes nothing', async () => {
    await runPacer(env, ['import', 'brands', file('brands.csv', 'Brand,First Name,Last Name,Email\nAcme,Jo,Ray,jo@acme.test\n')]);
    const csv = file('contacts.csv', 'First,Last,Mail,Company\nAna,Lima,ana@acme.test,Acme\n');
    const map = file('contacts-map.json', JSON.stringify({ First: 'firstName', Last: 'lastName', Mail: 'email' }));
    const dry = await runPacer(env, [
      'import',
      'contacts',
      csv,
      '--map',
      map,
      '--owner-type',
      'brand',
      '--owner-column',
      'Company',
      '--dry-run',
    ]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Dry run (nothing written): would have created 1');
    expect(await database.db('contacts').where({ email: 'ana@acme.test' }).count({ n: '*' }).first()).toMatchObject({ n: 0 });
    const real = await runPacer(env, ['import', 'contacts', csv, '--map', map, '--owner-type', 'brand', '--owner-column', 'Company']);
    expect(real.code).toBe(0);
    expect(await database.db('contacts').where({ email: 'ana@acme.test' }).first('entityType')).toEqual({ entityType: 'brand' });
  });

  it('brands without --map keep the spec import; with --map they take the general one; bad options exit 2', async () => {
    const spec = await runPacer(env, ['import', 'brands', file('b.csv', 'Brand,First Name,Last Name,Email\nZed,A,B,a@zed.test\n')]);
    expect(spec.out).toContain('Import finished: created 1 brands and 1 contacts; skipped 0.');
    const general = await runPacer(env, [
      'import',
      'brands',
      file('b2.csv', 'Name,Industry\nZed,Shoes\n'),
      '--map',
      file('b.json', '{"Name":"brandName"}'),
    ]);
    expect(general.out).toContain('Import finished: created 0, updated 1');
    const bad = await runPacer(env, ['import', 'media', file('m.csv', 'Media name\nX\n'), '--mode', 'merge']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--mode must be one of create, update, upsert');
    const unknown = await runPacer(env, [
      'import',
      'media',
      file('m2.csv', 'Media name\nX\n'),
      '--map',
      file('m.json', '{"Media name":"colour"}'),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('Unknown field for Media name: colour');
  });
});
