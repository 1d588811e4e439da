/**
 * `npx tsx bench/duplicates.ts`: the first page of GET /api/duplicates?type=contacts on 200,000 contacts (issue 34:
 * within 500 ms). Recreates the database named by DATABASE_URL (default a SQLite file under bench/out/; a
 * mysql:// URL benchmarks MariaDB), migrates it, inserts BENCH_CONTACTS contacts (default 200,000) through the
 * contact writes in batches of 10,000 (so the duplicate keys and pairs are kept as an import keeps them; about 2%
 * share an email with another contact), then times the first page through the service, cold and warm, and a page
 * deep in the list. Prints the figures, then drops a MariaDB database (BENCH_KEEP=1 keeps it).
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { createDatabase } from '@db/knex.js';
import { withTransaction } from '@db/transaction.js';
import type { AppContext } from '@services/context.js';
import { insertContactRows, type ContactInsert } from '@services/contacts/writes.js';
import { listDuplicates } from '@services/duplicates/service.js';
import { insertRecordRow } from '@services/records/writes.js';
import { migrateToLatest } from '@services/schema.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 200_000);
const BATCH = 10_000;
const outDir = path.resolve('bench/out');
const DATABASE_URL = process.env.DATABASE_URL ?? `sqlite:${path.join(outDir, 'duplicates.sqlite')}`;

async function recreate(url: string) {
  if (url.startsWith('sqlite:')) {
    mkdirSync(outDir, { recursive: true });
    for (const suffix of ['', '-wal', '-shm']) rmSync(url.slice('sqlite:'.length) + suffix, { force: true });
    return;
  }
  const name = new URL(url).pathname.slice(1);
  const admin = createDatabase({ url: url.replace(/\/[^/]*$/, '/') });
  await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  await admin.destroy();
}

const ms = (started: number) => Math.round(performance.now() - started);

await recreate(DATABASE_URL);
const db = createDatabase({ url: DATABASE_URL });
await migrateToLatest(db);
const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
const brand = await withTransaction({ db }, (trx) =>
  insertRecordRow(trx, 'brand', { brandName: 'Bench Brand', createdAt: now, updatedAt: now }),
);

console.log(`inserting ${CONTACTS.toLocaleString('en')} contacts…`);
const filling = performance.now();
for (let start = 0; start < CONTACTS; start += BATCH) {
  const rows: ContactInsert[] = [];
  for (let i = start; i < Math.min(CONTACTS, start + BATCH); i++) {
    // Every 50th contact reuses the email of the one 24,999 before it (in another case): about 2% duplicates.
    const email = i % 50 === 0 && i >= 25_000 ? `Person${i - 24_999}@Example.org` : `person${i}@example.org`;
    rows.push({
      firstName: `First${i % 997}`,
      lastName: `Last${i}`,
      jobTitle: null,
      email,
      mailchimpTags: '[]',
      entityType: 'brand',
      entityId: brand,
      isPrimary: 0,
      createdAt: now,
      updatedAt: now,
      createdBy: null,
    });
  }
  await withTransaction({ db }, (trx) => insertContactRows(trx, rows));
}
console.log(`filled in ${ms(filling)} ms`);

const ctx = { db, log: pino({ level: 'silent' }), clock: { now: () => new Date() } } as unknown as AppContext;
const pairs = Number(((await db('duplicate_pairs').where({ kind: 'contact' }).count({ n: '*' }).first()) as { n: number }).n);
const timed = async (query: Record<string, string>) => {
  const started = performance.now();
  const page = await listDuplicates(ctx, query);
  return { ms: ms(started), page };
};
const cold = await timed({ type: 'contacts' });
const warm: number[] = [];
for (let i = 0; i < 5; i++) warm.push((await timed({ type: 'contacts' })).ms);
warm.sort((a, b) => a - b);
let cursor = cold.page.nextCursor;
for (let i = 0; i < 20 && cursor; i++) cursor = (await listDuplicates(ctx, { type: 'contacts', cursor })).nextCursor;
const deep = cursor ? await timed({ type: 'contacts', cursor }) : undefined;

console.log(`database: ${DATABASE_URL.split(':')[0]}, contacts: ${CONTACTS.toLocaleString('en')}, duplicate pairs: ${pairs}`);
console.log(`first page (${cold.page.items.length} pairs): cold ${cold.ms} ms, warm median ${warm[2]} ms (goal ≤ 500 ms)`);
if (deep) console.log(`page 22: ${deep.ms} ms`);
await db.destroy();
if (!DATABASE_URL.startsWith('sqlite:') && !process.env.BENCH_KEEP) {
  const admin = createDatabase({ url: DATABASE_URL.replace(/\/[^/]*$/, '/') });
  await admin.raw('DROP DATABASE IF EXISTS ??', [new URL(DATABASE_URL).pathname.slice(1)]);
  await admin.destroy();
}
