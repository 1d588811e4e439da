// Issue 31's numbers: backup and restore of a filled database, with list latency during the backup.
//   1. fills a database (bench/fill.ts, then the search index and counts) and writes the files to a local upload folder;
//   2. starts the built server on it and measures the events list API (20 connections, autocannon) for BENCH_SECONDS,
//      then the same load again for exactly as long as a "Back up now" runs beside it (POST /api/backups: the backup
//      job, which runs `pacer db backup` in a child process at BACKUP_NICE, as the scheduled backup does): p99 during
//      ÷ p99 before;
//   3. restores the archive into an empty database and upload folder, then compares every table's row count and
//      every file's SHA-256 with the source's. `pacer` runs as built (bin/pacer.js on dist/cli.js), its peak RSS
//      polled from /proc. The load average is printed at each step: the machine may be shared.
//   npm run bench:backup                              # SQLite, 100k events, 200k contacts, 1,000 files of 100 KB
//   BENCH_EVENTS=20000 BENCH_FILES=200 npm run bench:backup
//   BENCH_DATABASE_URL=mysql://root@127.0.0.1:3306/pacer_bench_backup npm run bench:backup
//   BENCH_BACKUP_NICE=0 npm run bench:backup          # BACKUP_NICE for the server (default: the setting's own, 10)
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pino from 'pino';
import { loadConfig } from '@config/env.js';
import { createAppContext } from '@context/app-context.js';
import { createDatabase, dialectOf } from '@db/knex.js';
import { encodeTimestamp } from '@db/codecs.js';
import { migrateToLatest } from '@services/schema.js';
import { createUser } from '@services/users/service.js';
import { pacerNodeOptions } from '../scripts/pacer-node-options.mjs';
import { fill, volumesFor } from './fill.js';
import { peakRssKb } from './harness.js';

const events = Number(process.env.BENCH_EVENTS ?? 100_000);
const fileCount = Number(process.env.BENCH_FILES ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const CONNECTIONS = 20;
const BACKUP_NICE = process.env.BENCH_BACKUP_NICE ?? loadConfig({}, { cwd: tmpdir(), sessions: false }).backup.nice.toString();
const LIST_PATH = '/api/events'; // page 1, newest first, as `npm run bench` measures it
const EMAIL = 'bench@example.org';
const PASSWORD = 'bench-password-123';
const work = mkdtempSync(path.join(tmpdir(), 'pacer-bench-backup-'));
const sourceUrl = process.env.BENCH_DATABASE_URL ?? `sqlite:${path.join(work, 'source.sqlite')}`;
const targetUrl = sourceUrl.startsWith('sqlite:') ? `sqlite:${path.join(work, 'target.sqlite')}` : `${sourceUrl}_target`;
const uploads = path.join(work, 'uploads');
const restored = path.join(work, 'restored');
const baseEnv = {
  NODE_ENV: 'production',
  SESSION_SECRET: randomBytes(32).toString('hex'),
  COOKIE_SECURE: 'false',
  LOG_LEVEL: 'warn',
  PACER_HOME: work,
};
const sourceEnv = { ...baseEnv, DATABASE_URL: sourceUrl, UPLOAD_DIR: uploads };
const targetEnv = { ...baseEnv, DATABASE_URL: targetUrl, UPLOAD_DIR: restored };

/** The part of autocannon's API used here (the package ships no types). */
type Autocannon = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string> },
  done: (
    error: Error | null,
    result: { latency: { p50: number; p99: number }; requests: { average: number }; non2xx: number; errors: number; timeouts: number },
  ) => void,
) => { stop(): void };
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const log = (message: string) => console.log(`${message} (load ${loadAverage()})`);

interface Latency {
  reqPerSec: number;
  p50: number;
  p99: number;
  failures: number;
}

/**
 * 20 connections on the list API, in this process's event loop (both measurements alike), until `seconds` pass or
 * `stop()` is called.
 */
function listLoad(origin: string, cookie: string, seconds: number): { done: Promise<Latency>; stop: () => void } {
  let instance: { stop(): void } | undefined;
  const done = new Promise<Latency>((resolve, reject) => {
    instance = autocannon(
      {
        url: origin + LIST_PATH,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { cookie, 'accept-language': 'en-AU', 'accept-encoding': 'gzip, deflate, br' },
      },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              reqPerSec: Math.round(result.requests.average),
              p50: result.latency.p50,
              p99: result.latency.p99,
              failures: result.non2xx + result.errors + result.timeouts,
            }),
    );
  });
  return { done, stop: () => instance!.stop() };
}

/** Runs `pacer …` as built (bin/pacer.js with its node options), timing it and polling its peak RSS. */
function pacer(args: string[], env: Record<string, string>): Promise<{ seconds: number; peakRssMb: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...pacerNodeOptions(), 'bin/pacer.js', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    let peak = 0;
    const poll = setInterval(() => (peak = Math.max(peak, (child.pid && peakRssKb(child.pid)) || 0)), 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      if (code !== 0) reject(new Error(`pacer ${args.join(' ')} exited ${code}`));
      else resolve({ seconds: (performance.now() - started) / 1000, peakRssMb: peak / 1024 });
    });
  });
}

async function recreate(url: string) {
  if (url.startsWith('sqlite:')) return;
  const name = new URL(url).pathname.slice(1);
  const admin = createDatabase({ url: url.replace(/\/[^/]*$/, '/') });
  await admin.raw('DROP DATABASE IF EXISTS ??', [name]);
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  await admin.destroy();
}

/** Every table of the database with its row count. */
async function rowCounts(url: string): Promise<Record<string, number>> {
  const db = createDatabase({ url });
  try {
    const tables: string[] =
      dialectOf(url) === 'sqlite'
        ? await db('sqlite_master').where({ type: 'table' }).andWhereNot('name', 'like', 'sqlite_%').pluck('name')
        : await db('information_schema.TABLES').whereRaw("TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'").pluck('TABLE_NAME');
    const counts: Record<string, number> = {};
    for (const table of tables.sort()) counts[table] = Number(((await db(table).count({ n: '*' }).first()) as { n: number | string }).n);
    return counts;
  } finally {
    await db.destroy();
  }
}

/** The SHA-256 of every file in a folder, by name. */
async function fileHashes(folder: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  if (!existsSync(folder)) return hashes;
  for (const name of readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort()) {
    if (!statSync(path.join(folder, name)).isFile()) continue;
    const hash = createHash('sha256');
    await pipeline(createReadStream(path.join(folder, name)), hash);
    hashes.set(name, hash.digest('hex'));
  }
  return hashes;
}

/** Starts the built server on a free port and resolves once /readyz answers. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; origin: string }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const child = spawn(process.execPath, ['dist/server.js'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); ;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (
      await fetch(`${origin}/readyz`).then(
        (res) => res.ok,
        () => false,
      )
    )
      return { child, origin };
    if (Date.now() - started > 60_000) throw new Error('the server did not become ready in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
}

/** The server's child processes now (the backup job's `pacer db backup`). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** "Back up now" as the Backups panel does it, timed until its job succeeds; the peak RSS is its child process's. */
async function backUpNow(server: { child: ChildProcess; origin: string }, cookie: string): Promise<{ seconds: number; peakRssMb: number }> {
  const started = performance.now();
  const headers = { cookie, origin: server.origin };
  const res = await fetch(`${server.origin}/api/backups`, { method: 'POST', headers });
  if (res.status !== 202) throw new Error(`POST /api/backups answered ${res.status}: ${await res.text()}`);
  const { id } = (await res.json()) as { id: number };
  let peak = 0;
  for (;;) {
    for (const pid of childrenOf(server.child.pid!)) peak = Math.max(peak, peakRssKb(pid) ?? 0);
    const job = (await (await fetch(`${server.origin}/api/jobs/${id}`, { headers })).json()) as { state: string; error?: unknown };
    if (job.state === 'succeeded') return { seconds: (performance.now() - started) / 1000, peakRssMb: peak / 1024 };
    if (job.state !== 'queued' && job.state !== 'running')
      throw new Error(`the backup job ended ${job.state}: ${JSON.stringify(job.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited with ${code}`))));
  });
}

// 1. The source: rows, derived data, a user to sign in with, and the files.
log(`filling: ${events} events, ${2 * events} contacts, ${fileCount} files of 100 KB…`);
await recreate(sourceUrl);
await recreate(targetUrl);
mkdirSync(uploads);
const ctx = await createAppContext(loadConfig(sourceEnv), { log: pino({ level: 'warn' }) });
await migrateToLatest(ctx.db);
await fill(ctx.db, volumesFor(events));
// The fill writes rows without their derived data (search index, counts, duplicate keys and pairs): rebuilt here
// the way a restore rebuilds it, so the source's tables hold what the restored ones will.
await ctx.db('derived_data_versions').delete();
await migrateToLatest(ctx.db);
await createUser(ctx, { email: EMAIL, password: PASSWORD, firstName: 'Bench', lastName: 'Mark', role: 'admin' });
const now = encodeTimestamp(new Date());
for (let i = 0; i < fileCount; i++) {
  const key = `${randomUUID()}.png`;
  writeFileSync(path.join(uploads, key), randomBytes(100_000));
  await ctx.db('files').insert({
    entityType: 'event',
    entityId: 1 + (i % events),
    fileName: key,
    originalName: 'photo.png',
    filePath: key,
    fileType: 'image/png',
    fileSize: 100_000,
    fileCategory: 'image',
    uploadedAt: now,
  });
}
await ctx.db.destroy();

// 2. The list API without, then during, a backup.
await run(process.execPath, ['esbuild.config.mjs', '--if-stale']);
const archives = path.join(work, 'archives');
const server = await startServer({ ...sourceEnv, BACKUP_DIR: archives, BACKUP_NICE });
let before: Latency, during: Latency, backup: { seconds: number; peakRssMb: number };
let loadDuringBackup = 0;
try {
  const cookie = await signIn(server.origin);
  const probe = await fetch(server.origin + LIST_PATH, { headers: { cookie } });
  if (probe.status !== 200) throw new Error(`${LIST_PATH} answered ${probe.status}: ${await probe.text()}`);
  await listLoad(server.origin, cookie, 3).done; // warm-up
  log(`list API ${LIST_PATH} without a backup, ${SECONDS} s…`);
  before = await listLoad(server.origin, cookie, SECONDS).done;
  log(`the same load during "Back up now" (the backup job's child at BACKUP_NICE=${BACKUP_NICE})…`);
  const load = listLoad(server.origin, cookie, 3600);
  const sampler = setInterval(() => (loadDuringBackup = Math.max(loadDuringBackup, Number(loadAverage().split(' ')[0]))), 1000);
  try {
    backup = await backUpNow(server, cookie);
  } finally {
    clearInterval(sampler);
    load.stop();
  }
  during = await load.done;
} finally {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
}

const archive = path.join(
  archives,
  readdirSync(archives).find((name) => name.endsWith('.tar.gz'))!,
);

// 3. Restore into an empty database and folder, then compare with the source.
log('restoring into an empty database…');
// At LOG_LEVEL=info the restore logs the seconds of each phase (and of each derived-data rebuild) on stderr.
const restore = await pacer(['db', 'restore', archive, '--yes'], { ...targetEnv, LOG_LEVEL: 'info' });
log('comparing row counts and file checksums…');
const [sourceCounts, targetCounts] = [await rowCounts(sourceUrl), await rowCounts(targetUrl)];
const tableNames = [...new Set([...Object.keys(sourceCounts), ...Object.keys(targetCounts)])].sort();
const tablesDiffering = tableNames.filter((table) => sourceCounts[table] !== targetCounts[table]);
const [sourceFiles, targetFiles] = [await fileHashes(uploads), await fileHashes(restored)];
const filesDiffering = [...new Set([...sourceFiles.keys(), ...targetFiles.keys()])].filter(
  (name) => sourceFiles.get(name) !== targetFiles.get(name),
);

console.log(
  JSON.stringify(
    {
      database: dialectOf(sourceUrl),
      events,
      contacts: 2 * events,
      files: fileCount,
      archiveMb: Math.round(statSync(archive).size / 1e5) / 10,
      backup: {
        seconds: Math.round(backup.seconds * 10) / 10,
        peakRssMb: Math.round(backup.peakRssMb),
        nice: Number(BACKUP_NICE),
        path: 'POST /api/backups (the backup job, in a child process)',
        goal: '≤ 60 s, ≤ 200 MB',
      },
      listApi: {
        connections: CONNECTIONS,
        withoutBackup: before,
        duringBackup: during,
        p99Ratio: Math.round((during.p99 / Math.max(before.p99, 1)) * 100) / 100,
        goal: 'p99 ratio ≤ 2',
      },
      restore: { seconds: Math.round(restore.seconds * 10) / 10, peakRssMb: Math.round(restore.peakRssMb), goal: '≤ 180 s' },
      equality: {
        tables: tableNames.length,
        rows: Object.values(sourceCounts).reduce((sum, n) => sum + n, 0),
        tablesDiffering: Object.fromEntries(
          tablesDiffering.map((table) => [table, { source: sourceCounts[table], restored: targetCounts[table] }]),
        ),
        files: sourceFiles.size,
        filesDiffering,
        equal: tablesDiffering.length === 0 && filesDiffering.length === 0 && sourceFiles.size === fileCount,
      },
      loadAverage: { duringBackupMax1m: loadDuringBackup, end: loadAverage() },
    },
    null,
    2,
  ),
);
rmSync(work, { recursive: true, force: true });
