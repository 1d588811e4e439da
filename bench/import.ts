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
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDatabase, dialectOf } from '@db/knex.js';
import { rebuildDerivedData } from '@services/records/derived.js';
import {
  baselineFor,
  cli,
  csvCell,
  loadText,
  openRaw,
  recreateDatabase,
  runCli as runPacer,
  type Baseline,
  type Row,
  type RunResult,
} from './harness.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
/** Rows per transaction passed to `pacer import --batch-size` (the CLI's default when unset). */
const BATCH = process.env.BENCH_BATCH ? ['--batch-size', process.env.BENCH_BATCH] : [];
const PROFILE = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)] : [];
const BRANDS = Math.max(1, Math.round(ROWS / 20));
const DATABASE_URL = process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/pacer_bench_import';
const SQLITE = dialectOf(DATABASE_URL) === 'sqlite';
const outDir = path.resolve('bench/out');
const GOAL_RATIO = 0.5;
const GOAL_RSS_MB = 200;
const runCli = (args: string[], nodeOptions: string[] = []) => runPacer(DATABASE_URL, args, nodeOptions);

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

  const dropDatabase = await recreateDatabase(DATABASE_URL);
  try {
    step('migrating');
    const migrate = await runCli(['db', 'migrate']);
    if (migrate.code !== 0) throw new Error(`migration failed: ${migrate.stderr}`);
    step(`seeding ${ROWS.toLocaleString('en')} events`);
    await seedEvents();
    const load = loadText();

    step('importing brands');
    const brands = await runCli(['import', 'brands', brandsFile, '--json', ...BATCH], PROFILE);
    if (brands.code !== 0) throw new Error(`brands import failed (${brands.code}): ${brands.stderr}`);
    step('importing events');
    const events = await runCli(['import', 'events', eventsFile, '--json', ...BATCH], PROFILE);
    if (events.code !== 0) throw new Error(`events import failed (${events.code}): ${events.stderr}`);
    step('importing brands again');
    const again = await runCli(['import', 'brands', brandsFile, '--json', ...BATCH]);

    step('raw INSERTs of the same rows');
    const raw = await openRaw(DATABASE_URL);
    const brandContacts = await raw.select("SELECT * FROM contacts WHERE entityType = 'brand' ORDER BY id");
    const brandsBaseline = await baselineFor(raw, [{ table: 'contacts', rows: brandContacts }], brandContacts, ROWS);
    const eventContacts = await raw.select("SELECT * FROM contacts WHERE entityType = 'event' ORDER BY id");
    const eventRows = await raw.select('SELECT * FROM events ORDER BY id');
    const eventsBaseline = await baselineFor(
      raw,
      [
        { table: 'events', rows: eventRows },
        { table: 'contacts', rows: eventContacts },
      ],
      eventContacts,
      ROWS,
    );
    await raw.close();

    console.log(
      `${SQLITE ? 'SQLite' : 'MariaDB'} (${DATABASE_URL}), ${ROWS.toLocaleString('en')} CSV rows per file, ${BRANDS.toLocaleString('en')} distinct brands, ` +
        `load average ${load} at the start, ${loadText()} at the end`,
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
