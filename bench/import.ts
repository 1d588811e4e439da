/**
 * `npm run bench:import`: how fast `pacer import` moves a large CSV into the database, next to the database's own
 * speed for the same rows measured in the same run (issue 16: imports ≥ 0.5× raw INSERT, peak RSS ≤ 200 MB).
 *
 * 1. recreates the database named by DATABASE_URL (default mysql://root@127.0.0.1:3306/pacer_bench_import; a
 *    `sqlite:FILE` URL benchmarks SQLite) and migrates it;
 * 2. writes a 100,000-row brands CSV (quoted cells with commas and quotes, 5,000 brands repeated) and a matching
 *    events CSV (100,000 events inserted first, with their search data, one or two addresses per row) under bench/out/;
 * 3. runs the built CLI as `pacer` runs it (bin/pacer.js with the node options of its first line, on dist/cli.js, so
 *    `npm run build` first) on each, timing it and polling /proc/<pid>/status for the peak resident memory (VmHWM);
 * 4. reads back what each import wrote and inserts exactly those rows again, raw, into empty copies of the tables
 *    in one transaction: mysql2 multi-row INSERTs of 1,000 rows, or a better-sqlite3 prepared statement. "Raw" is
 *    the issue's yardstick (brands: the contacts; events: the events and their contacts); "raw + index" also writes
 *    the contacts' search documents and trigram postings, which the import keeps in the same transaction;
 * 5. prints rows/s (CSV rows per second of each), the ratios with their goals, the ceiling the index puts on the
 *    ratio (raw + index ÷ raw) and the peak RSS, and drops the MariaDB database (BENCH_KEEP=1 keeps it).
 * BENCH_ROWS and BENCH_BATCH change the file size and the rows per transaction; BENCH_PROFILE=DIR passes
 * `--cpu-prof --cpu-prof-dir DIR` to the imports.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import path from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { createDatabase, dialectOf, mysqlConnection } from '@db/knex.js';
import { CONTACT_INDEX } from '@services/records/definitions.js';
import { rebuildDerivedData } from '@services/records/derived.js';
import { PostingCollector } from '@services/records/postings.js';
import { gramsOf, searchDocument } from '@services/records/search-text.js';
import { pacerNodeOptions } from '../scripts/pacer-node-options.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
/** Rows per transaction passed to `pacer import --batch-size` (the CLI's default when unset). */
const BATCH = process.env.BENCH_BATCH ? ['--batch-size', process.env.BENCH_BATCH] : [];
const PROFILE = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)] : [];
const BRANDS = Math.max(1, Math.round(ROWS / 20));
const DATABASE_URL = process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/pacer_bench_import';
const SQLITE = dialectOf(DATABASE_URL) === 'sqlite';
const outDir = path.resolve('bench/out');
const cli = path.resolve('dist/cli.js');
const pacer = path.resolve('bin/pacer.js');
const PACER_NODE_OPTIONS = pacerNodeOptions();
const GOAL_RATIO = 0.5;
const GOAL_RSS_MB = 200;

type Row = Record<string, unknown>;

/** The part of better-sqlite3's API used here (the package ships no types). */
interface SqliteHandle {
  pragma(sql: string): unknown;
  exec(sql: string): void;
  prepare(sql: string): { all(...params: unknown[]): unknown[]; run(params: unknown[]): unknown };
  transaction(work: () => void): () => void;
  close(): void;
}
const SqliteDatabase = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteHandle;

/**
 * The same few operations on either database, for the raw baselines: read rows, make an empty copy of a table (same
 * columns and indexes), and insert rows into it in one transaction, timed.
 */
interface RawDatabase {
  select(sql: string): Promise<Row[]>;
  emptyCopy(table: string): Promise<string>;
  /** Inserts every row of each table in one transaction; answers the seconds it took. */
  insertTimed(parts: ReadonlyArray<{ table: string; columns: readonly string[]; rows: () => Iterable<unknown[]> }>): Promise<number>;
  close(): Promise<void>;
}

const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

function* inGroups<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let group: T[] = [];
  for (const item of items) {
    group.push(item);
    if (group.length === size) {
      yield group;
      group = [];
    }
  }
  if (group.length) yield group;
}

async function mysqlRaw(url: string): Promise<RawDatabase> {
  const { host, port, user, password, database, charset } = mysqlConnection(url);
  const conn: Connection = await createConnection({ host, port, user, password, database, charset, dateStrings: true, timezone: 'Z' });
  return {
    async select(sql) {
      const [rows] = await conn.query(sql);
      return rows as Row[];
    },
    async emptyCopy(table) {
      const copy = `${table}_raw`;
      await conn.query('DROP TABLE IF EXISTS ??', [copy]);
      await conn.query('CREATE TABLE ?? LIKE ??', [copy, table]);
      return copy;
    },
    async insertTimed(parts) {
      const started = process.hrtime.bigint();
      await conn.beginTransaction();
      for (const { table, columns, rows } of parts) {
        for (const group of inGroups(rows(), 1000)) await conn.query('INSERT INTO ?? (??) VALUES ?', [table, columns, group]);
      }
      await conn.commit();
      return seconds(started);
    },
    close: () => conn.end(),
  };
}

function sqliteRaw(url: string): RawDatabase {
  const db = new SqliteDatabase(path.resolve(url.slice('sqlite:'.length)));
  db.pragma('journal_mode = WAL');
  return {
    select: (sql) => Promise.resolve(db.prepare(sql).all() as Row[]),
    emptyCopy(table) {
      const copy = `${table}_raw`;
      db.exec(`DROP TABLE IF EXISTS "${copy}"`);
      const schema = db
        .prepare('SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type DESC')
        .all(table) as Row[];
      for (const item of schema) {
        const sql = String(item.sql);
        // The table's own definition, then each index on it, renamed onto the copy.
        if (item.type === 'table') db.exec(sql.replace(/^CREATE TABLE\s+[`"]?\w+[`"]?/i, `CREATE TABLE "${copy}"`));
        else
          db.exec(
            sql
              .replace(
                /^CREATE (UNIQUE )?INDEX\s+[`"]?(\w+)[`"]?/i,
                (_m, unique: string | undefined, name: string) => `CREATE ${unique ?? ''}INDEX "${name}_raw"`,
              )
              .replace(/ ON [`"]?\w+[`"]?/i, ` ON "${copy}"`),
          );
      }
      return Promise.resolve(copy);
    },
    insertTimed(parts) {
      const started = process.hrtime.bigint();
      db.transaction(() => {
        for (const { table, columns, rows } of parts) {
          const insert = db.prepare(
            `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          );
          for (const row of rows()) insert.run(row);
        }
      })();
      return Promise.resolve(seconds(started));
    },
    close() {
      db.close();
      return Promise.resolve();
    },
  };
}

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

function brandNameOf(i: number): string {
  const n = i % BRANDS;
  if (n % 10 === 0) return `Stride & Co, Pty ${n}`;
  if (n % 10 === 1) return `The "Fast" Shoe ${n}`;
  return `Brand ${n}`;
}

function writeBrandsCsv(file: string): void {
  const lines = ['Brand,First Name,Last Name,Email,Current Job'];
  for (let i = 0; i < ROWS; i++) {
    lines.push(
      [brandNameOf(i), `Pat${i}`, `Lee, Jr`, `pat.lee${i}@brand${i % BRANDS}.example.com`, i % 3 === 0 ? 'Head of "Growth", APAC' : 'Buyer']
        .map(csvCell)
        .join(','),
    );
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

function writeEventsCsv(file: string): void {
  const lines = ['event_id,website,Email'];
  for (let i = 1; i <= ROWS; i++) {
    const emails = i % 2 === 0 ? `race${i}@events.example.org, entries${i}@events.example.org` : `race${i}@events.example.org`;
    lines.push([String(i), `https://race${i}.example.org`, emails].map(csvCell).join(','));
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

interface RunResult {
  seconds: number;
  peakRssMb: number;
  code: number;
  stdout: string;
  stderr: string;
}

function peakRssKb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

function runCli(args: string[], nodeOptions: string[] = []): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...PACER_NODE_OPTIONS, ...nodeOptions, pacer, ...args], {
      env: {
        ...process.env,
        DATABASE_URL,
        NODE_ENV: 'production',
        SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let peak = 0;
    const poll = setInterval(() => {
      const kb = child.pid ? peakRssKb(child.pid) : null;
      if (kb !== null) peak = Math.max(peak, kb);
    }, 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      resolve({ seconds: seconds(started), peakRssMb: peak / 1024, code: code ?? -1, stdout, stderr });
    });
  });
}

/** Drops and recreates the benchmark's database (a MariaDB database, or the SQLite file and its journals). */
async function recreateDatabase(): Promise<() => Promise<void>> {
  if (SQLITE) {
    const file = path.resolve(DATABASE_URL.slice('sqlite:'.length));
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    return () => Promise.resolve();
  }
  const { host, port, user, password, database } = mysqlConnection(DATABASE_URL);
  if (!database) throw new Error('DATABASE_URL must name the benchmark database');
  const admin = await createConnection({ host, port, user, password });
  await admin.query('DROP DATABASE IF EXISTS ??', [database]);
  await admin.query('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [database]);
  return async () => {
    if (!process.env.BENCH_KEEP) await admin.query('DROP DATABASE IF EXISTS ??', [database]);
    await admin.end();
  };
}

/** The events the events CSV names, inserted as if created through the app, with their search data. */
async function seedEvents(): Promise<void> {
  const knex = createDatabase({ url: DATABASE_URL });
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  await knex.transaction(async (trx) => {
    const chunk = SQLITE ? 400 : 5000;
    for (let start = 1; start <= ROWS; start += chunk) {
      const rows: Row[] = [];
      for (let i = start; i < Math.min(start + chunk, ROWS + 1); i++)
        rows.push({ eventName: `Race ${i}`, wordpressEventId: i, createdAt: now, updatedAt: now });
      await trx('events').insert(rows);
    }
  });
  await rebuildDerivedData(knex, ['event']);
  await knex.destroy();
}

const withoutId = (rows: Row[]) => {
  const columns = Object.keys(rows[0] ?? {}).filter((column) => column !== 'id');
  // A JSON column comes back parsed from mysql2: it goes in again as its text.
  const stored = (value: unknown) => (value !== null && typeof value === 'object' ? JSON.stringify(value) : value);
  return { columns, values: () => rows.map((row) => columns.map((column) => stored(row[column]))) };
};

/** Contacts' search documents and trigram postings, made by the index's own rules, for the "raw + index" baseline. */
function indexRowsOf(contacts: Row[]) {
  const docs = contacts.map((row) => [CONTACT_INDEX.code, Number(row.id), searchDocument(CONTACT_INDEX.searchFields(row)), '']);
  return {
    docs: () => docs,
    // Packed as the index packs them, by the index's own collector (which takes ids in ascending order).
    grams: () => {
      const postings = new PostingCollector();
      for (const [, id, text] of [...docs].sort((a, b) => Number(a[1]) - Number(b[1]))) postings.add(Number(id), gramsOf(String(text)));
      return postings.sorted().rows(CONTACT_INDEX.code);
    },
  };
}

interface Baseline {
  raw: number;
  withIndex: number;
}

/** Inserts the given rows again, raw, into empty copies: once alone, once with the contacts' index rows. */
async function baselineFor(raw: RawDatabase, tables: Array<{ table: string; rows: Row[] }>, contacts: Row[]): Promise<Baseline> {
  const parts = async () =>
    Promise.all(
      tables.map(async ({ table, rows }) => {
        const { columns, values } = withoutId(rows);
        return { table: await raw.emptyCopy(table), columns, rows: values };
      }),
    );
  const rawSeconds = await raw.insertTimed(await parts());
  const index = indexRowsOf(contacts);
  const withIndexSeconds = await raw.insertTimed([
    ...(await parts()),
    { table: await raw.emptyCopy('record_search_docs'), columns: ['kind', 'recordId', 'text', 'buckets'], rows: index.docs },
    { table: await raw.emptyCopy('record_search_grams'), columns: ['kind', 'gram', 'block', 'ids'], rows: index.grams },
  ]);
  return { raw: ROWS / rawSeconds, withIndex: ROWS / withIndexSeconds };
}

const rate = (value: number) => `${Math.round(value).toLocaleString('en')} rows/s`;
const ratio = (value: number) => `${value.toFixed(2)}×`;

function report(label: string, result: RunResult, counts: string[], baseline?: Baseline): boolean {
  const summary = JSON.parse(result.stdout) as Record<string, unknown>;
  const importRate = ROWS / result.seconds;
  console.log(
    `${label.padEnd(8)} ${result.seconds.toFixed(2)} s = ${rate(importRate)}, peak RSS ${result.peakRssMb.toFixed(0)} MB (goal ≤ ${GOAL_RSS_MB} MB), ` +
      JSON.stringify(Object.fromEntries(counts.map((key) => [key, summary[key]]))),
  );
  if (!baseline) return result.peakRssMb <= GOAL_RSS_MB;
  console.log(
    `         raw INSERT ${rate(baseline.raw)}: ${ratio(importRate / baseline.raw)} (goal ≥ ${GOAL_RATIO}×); ` +
      `raw INSERT + index rows ${rate(baseline.withIndex)}: ${ratio(importRate / baseline.withIndex)}`,
  );
  // What the goal can be held to while an import writes its search index in its own transaction (ADR 0086).
  console.log(
    `         ceiling: raw INSERT + index rows ÷ raw INSERT = ${ratio(baseline.withIndex / baseline.raw)} ` +
      '(an import that did nothing but write its rows and their index rows)',
  );
  return result.peakRssMb <= GOAL_RSS_MB && importRate / baseline.raw >= GOAL_RATIO;
}

const step = (what: string) => console.error(`[bench:import] ${what}`);

async function main() {
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  mkdirSync(outDir, { recursive: true });
  const brandsFile = path.join(outDir, 'brands.csv');
  const eventsFile = path.join(outDir, 'events.csv');
  writeBrandsCsv(brandsFile);
  writeEventsCsv(eventsFile);

  const dropDatabase = await recreateDatabase();
  try {
    step('migrating');
    const migrate = await runCli(['db', 'migrate']);
    if (migrate.code !== 0) throw new Error(`migration failed: ${migrate.stderr}`);
    step(`seeding ${ROWS.toLocaleString('en')} events`);
    await seedEvents();
    const load = loadavg().map((value) => value.toFixed(2));

    step('importing brands');
    const brands = await runCli(['import', 'brands', brandsFile, '--json', ...BATCH], PROFILE);
    if (brands.code !== 0) throw new Error(`brands import failed (${brands.code}): ${brands.stderr}`);
    step('importing events');
    const events = await runCli(['import', 'events', eventsFile, '--json', ...BATCH], PROFILE);
    if (events.code !== 0) throw new Error(`events import failed (${events.code}): ${events.stderr}`);
    step('importing brands again');
    const again = await runCli(['import', 'brands', brandsFile, '--json', ...BATCH]);

    step('raw INSERTs of the same rows');
    const raw = SQLITE ? sqliteRaw(DATABASE_URL) : await mysqlRaw(DATABASE_URL);
    const brandContacts = await raw.select("SELECT * FROM contacts WHERE entityType = 'brand' ORDER BY id");
    const brandsBaseline = await baselineFor(raw, [{ table: 'contacts', rows: brandContacts }], brandContacts);
    const eventContacts = await raw.select("SELECT * FROM contacts WHERE entityType = 'event' ORDER BY id");
    const eventRows = await raw.select('SELECT * FROM events ORDER BY id');
    const eventsBaseline = await baselineFor(
      raw,
      [
        { table: 'events', rows: eventRows },
        { table: 'contacts', rows: eventContacts },
      ],
      eventContacts,
    );
    await raw.close();

    console.log(
      `${SQLITE ? 'SQLite' : 'MariaDB'} (${DATABASE_URL}), ${ROWS.toLocaleString('en')} CSV rows per file, ${BRANDS.toLocaleString('en')} distinct brands, ` +
        `load average ${load.join(' ')} at the start, ${loadavg()
          .map((value) => value.toFixed(2))
          .join(' ')} at the end`,
    );
    const met = [
      report('brands', brands, ['brandsCreated', 'contactsCreated', 'skipped'], brandsBaseline),
      report('events', events, ['updated', 'created', 'skipped'], eventsBaseline),
      report('re-run', again, ['brandsCreated', 'contactsCreated', 'skipped']),
    ];
    console.log(
      `targets  brands and events ≥ ${GOAL_RATIO}× raw INSERT, peak RSS ≤ ${GOAL_RSS_MB} MB: ${met.every(Boolean) ? 'met' : 'NOT met'}`,
    );
  } finally {
    await dropDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
