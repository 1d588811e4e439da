/**
 * `npm run bench:import`: how fast `pacer import` moves a large CSV into MariaDB, and how that compares with the
 * database's own speed for the same rows.
 *
 * 1. creates a scratch MariaDB database (BENCH_DATABASE_URL, default mysql://root@127.0.0.1:3306) and migrates it;
 * 2. writes a 100,000-row brands CSV (quoted cells with commas and quotes, 5,000 brands repeated) and a matching
 *    events CSV (100,000 events inserted first, with their search data, one or two addresses per row) under bench/out/;
 * 3. runs the built CLI (`node dist/cli.js import …`, so `npm run build` first) on each, timing it and polling
 *    /proc/<pid>/status for the peak resident memory (VmHWM);
 * 4. times a plain mysql2 multi-row INSERT of the same contact rows into an empty copy of the table;
 * 5. prints rows/s, peak RSS and the ratio, and drops the database (BENCH_KEEP=1 keeps it).
 * BENCH_ROWS and BENCH_BATCH change the file size and the rows per transaction.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { createDatabase } from '@db/knex.js';
import { rebuildDerivedData } from '@services/records/derived.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
/** Rows per transaction passed to `pacer import --batch-size` (the CLI's default when unset). */
const BATCH = process.env.BENCH_BATCH ? ['--batch-size', process.env.BENCH_BATCH] : [];
const BRANDS = Math.max(1, Math.round(ROWS / 20));
const server = new URL((process.env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306').replace(/^mariadb:/, 'mysql:'));
const dbName = `pacer_bench_${process.pid}`;
const outDir = path.resolve('bench/out');
const cli = path.resolve('dist/cli.js');

function databaseUrl(): string {
  const url = new URL(server.toString());
  url.pathname = `/${dbName}`;
  return url.toString();
}

function connect(database?: string): Promise<Connection> {
  return createConnection({
    host: server.hostname,
    port: Number(server.port || 3306),
    user: decodeURIComponent(server.username),
    password: decodeURIComponent(server.password),
    database,
    charset: 'utf8mb4',
    multipleStatements: false,
  });
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

function runCli(args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, ...args], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl(),
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
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      resolve({ seconds, peakRssMb: peak / 1024, code: code ?? -1, stdout, stderr });
    });
  });
}

async function insertEvents(conn: Connection): Promise<void> {
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  for (let start = 1; start <= ROWS; start += 5000) {
    const rows: unknown[][] = [];
    for (let i = start; i < Math.min(start + 5000, ROWS + 1); i++) rows.push([`Race ${i}`, i, now, now]);
    await conn.query('INSERT INTO events (eventName, wordpressEventId, createdAt, updatedAt) VALUES ?', [rows]);
  }
}

/** The database's own speed: the same number of contact rows, multi-row INSERTs of 1,000, in one transaction. */
async function plainInsert(conn: Connection): Promise<number> {
  await conn.query('CREATE TABLE contacts_baseline LIKE contacts');
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  const started = process.hrtime.bigint();
  await conn.beginTransaction();
  for (let start = 0; start < ROWS; start += 1000) {
    const rows: unknown[][] = [];
    for (let i = start; i < Math.min(start + 1000, ROWS); i++) {
      rows.push([
        `Pat${i}`,
        'Lee, Jr',
        'Buyer',
        `pat.lee${i}@brand${i % BRANDS}.example.com`,
        '[]',
        'brand',
        (i % BRANDS) + 1,
        0,
        now,
        now,
        null,
      ]);
    }
    await conn.query(
      'INSERT INTO contacts_baseline (firstName, lastName, jobTitle, email, mailchimpTags, entityType, entityId, isPrimary, createdAt, updatedAt, createdBy) VALUES ?',
      [rows],
    );
  }
  await conn.commit();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function report(label: string, result: RunResult) {
  const rate = Math.round(ROWS / result.seconds);
  console.log(
    `${label.padEnd(8)} ${ROWS.toLocaleString('en')} rows in ${result.seconds.toFixed(2)} s = ${rate.toLocaleString('en')} rows/s, peak RSS ${result.peakRssMb.toFixed(0)} MB (exit ${result.code})`,
  );
  return rate;
}

async function main() {
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  mkdirSync(outDir, { recursive: true });
  const brandsFile = path.join(outDir, 'brands.csv');
  const eventsFile = path.join(outDir, 'events.csv');
  writeBrandsCsv(brandsFile);
  writeEventsCsv(eventsFile);

  const admin = await connect();
  await admin.query('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [dbName]);
  try {
    const migrate = await runCli(['db', 'migrate']);
    if (migrate.code !== 0) throw new Error(`migration failed: ${migrate.stderr}`);
    const conn = await connect(dbName);
    await insertEvents(conn);
    // The events exist as if created through the app: with the search data the records service keeps for them.
    const knex = createDatabase({ url: databaseUrl() });
    await rebuildDerivedData(knex, ['event']);
    await knex.destroy();

    const brands = await runCli(['import', 'brands', brandsFile, '--json', ...BATCH]);
    if (brands.code !== 0) throw new Error(`brands import failed (${brands.code}): ${brands.stderr}`);
    const eventsRun = await runCli(['import', 'events', eventsFile, '--json', ...BATCH]);
    if (eventsRun.code !== 0) throw new Error(`events import failed (${eventsRun.code}): ${eventsRun.stderr}`);
    const again = await runCli(['import', 'brands', brandsFile, '--json', ...BATCH]);
    const baseline = await plainInsert(conn);
    await conn.end();

    const summary = (run: RunResult) => JSON.parse(run.stdout) as Record<string, unknown>;
    console.log(`MariaDB ${server.host}, ${ROWS.toLocaleString('en')} rows per file, ${BRANDS.toLocaleString('en')} distinct brands`);
    const brandRate = report('brands', brands);
    console.log(
      `         ${JSON.stringify({ brandsCreated: summary(brands).brandsCreated, contactsCreated: summary(brands).contactsCreated, skipped: summary(brands).skipped })}`,
    );
    report('events', eventsRun);
    console.log(
      `         ${JSON.stringify({ updated: summary(eventsRun).updated, created: summary(eventsRun).created, skipped: summary(eventsRun).skipped })}`,
    );
    report('re-run', again);
    console.log(
      `         ${JSON.stringify({ brandsCreated: summary(again).brandsCreated, contactsCreated: summary(again).contactsCreated, skipped: summary(again).skipped })}`,
    );
    const baselineRate = Math.round(ROWS / baseline);
    console.log(
      `plain    mysql2 multi-row INSERT of ${ROWS.toLocaleString('en')} contact rows: ${baseline.toFixed(2)} s = ${baselineRate.toLocaleString('en')} rows/s`,
    );
    console.log(`ratio    brands import runs at ${((brandRate / baselineRate) * 100).toFixed(0)}% of the plain INSERT's speed`);
    const ok = brandRate >= 20_000 && Math.max(brands.peakRssMb, eventsRun.peakRssMb) <= 300;
    console.log(`targets  brands >= 20,000 rows/s and peak RSS <= 300 MB: ${ok ? 'met' : 'NOT met'}`);
  } finally {
    if (!process.env.BENCH_KEEP) await admin.query('DROP DATABASE IF EXISTS ??', [dbName]);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
