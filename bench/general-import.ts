/**
 * `npm run bench:general-import`: a create-or-update general import of 100,000 contacts (issue 34: ≥ 0.3× the raw
 * INSERT of the same rows, measured in the same run, with peak RSS ≤ 200 MB).
 *
 * 1. recreates the database named by DATABASE_URL (default a SQLite file under bench/out/; a mysql:// URL
 *    benchmarks MariaDB, dropped at the end unless BENCH_KEEP=1) and migrates it with the built CLI;
 * 2. inserts BENCH_ROWS ÷ 20 brands (the contacts' owners, with their search data) and writes a BENCH_ROWS-row
 *    contacts CSV under bench/out/ whose headers are not the field names (so --map maps them), its owners named
 *    by a Company column (brand names, some quoted with commas and quotes);
 * 3. runs `pacer import contacts FILE --map … --mode upsert --key email --owner-type brand --owner-column Company
 *    --json` as `pacer` runs it (bench/harness.ts; `npm run build` first), timing it and polling its peak RSS: every
 *    row is created; then the same file again, for information: every row unchanged;
 * 4. inserts the contacts the import wrote again, raw, into an empty copy of the table (bench/harness.ts), alone
 *    ("raw INSERT", the goal's yardstick) and with their search documents and postings ("raw + index");
 * 5. prints rows/s, the ratio with its goal, the peak RSS, and the load average.
 * BENCH_PROFILE=DIR passes `--cpu-prof --cpu-prof-dir DIR` to the imports.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDatabase, dialectOf } from '@db/knex.js';
import { rebuildDerivedData } from '@services/records/derived.js';
import { baselineFor, cli, csvCell, loadText, openRaw, recreateDatabase, runCli, type Row, type RunResult } from './harness.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BRANDS = Math.max(1, Math.round(ROWS / 20));
const outDir = path.resolve('bench/out');
const DATABASE_URL = process.env.DATABASE_URL ?? `sqlite:${path.join(outDir, 'general-import.sqlite')}`;
const SQLITE = dialectOf(DATABASE_URL) === 'sqlite';
const PROFILE = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)] : [];
const GOAL_RATIO = 0.3;
const GOAL_RSS_MB = 200;

const HEADER = ['Given name', 'Surname', 'E-mail', 'Mobile', 'Position', 'Company', 'Comments'];
const MAPPING = {
  'Given name': 'firstName',
  Surname: 'lastName',
  'E-mail': 'email',
  Mobile: 'phone',
  Position: 'jobTitle',
  Comments: 'notes',
};

function brandNameOf(n: number): string {
  if (n % 10 === 0) return `Stride & Co, Pty ${n}`;
  if (n % 10 === 1) return `The "Fast" Shoe ${n}`;
  return `Brand ${n}`;
}

function writeContactsCsv(file: string): void {
  const lines = [HEADER.join(',')];
  for (let i = 0; i < ROWS; i++)
    lines.push(
      [
        `Pat${i}`,
        i % 7 === 0 ? 'Lee, Jr' : `Lee${i % 100}`,
        `pat.lee${i}@brand${i % BRANDS}.example.com`,
        i % 2 === 0 ? `+61 4${String(i).padStart(8, '0')}` : '',
        i % 3 === 0 ? 'Head of "Growth", APAC' : 'Buyer',
        brandNameOf(i % BRANDS),
        i % 5 === 0 ? 'Met at the expo; wants the 2027 calendar' : '',
      ]
        .map(csvCell)
        .join(','),
    );
  writeFileSync(file, lines.join('\n') + '\n');
}

/** The contacts' owners, inserted as if created through the app, with their search data. */
async function seedBrands(): Promise<void> {
  const knex = createDatabase({ url: DATABASE_URL });
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  await knex.transaction(async (trx) => {
    const rows: Row[] = [];
    for (let n = 0; n < BRANDS; n++) rows.push({ brandName: brandNameOf(n), createdAt: now, updatedAt: now });
    for (let start = 0; start < rows.length; start += 400) await trx('brands').insert(rows.slice(start, start + 400));
  });
  await rebuildDerivedData(knex, ['brand']);
  await knex.destroy();
}

const rate = (value: number) => `${Math.round(value).toLocaleString('en')} rows/s`;
const step = (what: string) => console.error(`[bench:general-import] ${what}`);

function line(label: string, result: RunResult): { rate: number; summary: string } {
  const counts = (JSON.parse(result.stdout) as { counts: Record<string, number> }).counts;
  const importRate = ROWS / result.seconds;
  console.log(
    `${label.padEnd(8)} ${result.seconds.toFixed(2)} s = ${rate(importRate)}, peak RSS ${result.peakRssMb.toFixed(0)} MB ` +
      `(goal ≤ ${GOAL_RSS_MB} MB), ${JSON.stringify(counts)}`,
  );
  return { rate: importRate, summary: JSON.stringify(counts) };
}

async function main() {
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, 'general-contacts.csv');
  const mapFile = path.join(outDir, 'general-contacts.map.json');
  writeContactsCsv(file);
  writeFileSync(mapFile, JSON.stringify(MAPPING));

  const dropDatabase = await recreateDatabase(DATABASE_URL);
  try {
    step('migrating');
    const migrate = await runCli(DATABASE_URL, ['db', 'migrate']);
    if (migrate.code !== 0) throw new Error(`migration failed: ${migrate.stderr}`);
    step(`seeding ${BRANDS.toLocaleString('en')} brands`);
    await seedBrands();
    const load = loadText();

    const args = ['import', 'contacts', file, '--map', mapFile, '--mode', 'upsert', '--key', 'email'];
    const owners = ['--owner-type', 'brand', '--owner-column', 'Company', '--json'];
    step('importing contacts');
    const first = await runCli(DATABASE_URL, [...args, ...owners], PROFILE);
    if (first.code !== 0) throw new Error(`import failed (${first.code}): ${first.stderr}`);
    step('importing the same file again');
    const again = await runCli(DATABASE_URL, [...args, ...owners], PROFILE);
    if (again.code !== 0) throw new Error(`second import failed (${again.code}): ${again.stderr}`);

    step('raw INSERTs of the same rows');
    const raw = await openRaw(DATABASE_URL);
    const contacts = await raw.select("SELECT * FROM contacts WHERE entityType = 'brand' ORDER BY id");
    if (contacts.length !== ROWS) throw new Error(`the import wrote ${contacts.length} contacts, not ${ROWS}`);
    const baseline = await baselineFor(raw, [{ table: 'contacts', rows: contacts }], contacts, ROWS);
    await raw.close();

    console.log(
      `${SQLITE ? 'SQLite' : 'MariaDB'} (${DATABASE_URL}), ${ROWS.toLocaleString('en')} contacts, ${BRANDS.toLocaleString('en')} brands, ` +
        `load average ${load} at the start, ${loadText()} at the end`,
    );
    const created = line('upsert', first);
    const ratio = created.rate / baseline.raw;
    console.log(
      `         raw INSERT ${rate(baseline.raw)}: ${ratio.toFixed(2)}× (goal ≥ ${GOAL_RATIO}×); ` +
        `raw INSERT + index rows ${rate(baseline.withIndex)}: ${(created.rate / baseline.withIndex).toFixed(2)}×`,
    );
    const second = line('re-run', again);
    console.log(`         the same file again: ${(second.rate / baseline.raw).toFixed(2)}× raw INSERT (for information)`);
    const met = ratio >= GOAL_RATIO && first.peakRssMb <= GOAL_RSS_MB && again.peakRssMb <= GOAL_RSS_MB;
    console.log(`target   upsert ≥ ${GOAL_RATIO}× raw INSERT, peak RSS ≤ ${GOAL_RSS_MB} MB: ${met ? 'met' : 'NOT met'}`);
  } finally {
    await dropDatabase();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
