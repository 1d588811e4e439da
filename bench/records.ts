/**
 * `npm run bench`: fills a database with the issue's volumes, starts the built product (`dist/server.js`) and, next
 * to it, a bare "limit" server (bench/limit-server.tsx: node:http + mysql2 + renderToString, the same rows and the
 * same queries, no framework, no session), and measures both with autocannon (20 connections) one after the other
 * in the same run. Every figure is printed with the limit's figure and the ratio, so results compare across a noisy,
 * shared machine. Load generation runs in a worker thread so it does not share either server's event loop.
 *
 *   --events N        events to seed (default 100,000; 1,000,000 works), contacts twice that
 *   --only A,B        measure only the targets whose title contains one of these words (e.g. `--only detail`);
 *                     `search` or `export` picks the work-surface figures (bench/work-surface.ts)
 *   --compare-to-events M   the scale comparison instead (bench/scale.ts): the list API, search, list and detail page
 *                     on this database and on the one of M events (read only, never filled), the ratio N ÷ M of
 *                     each, and the database size per 100,000 events
 *   DATABASE_URL      default mysql://root@127.0.0.1:3306/pacer_bench (…_e<N> for other volumes); created if missing
 *   BENCH_SECONDS     seconds per measurement (default 10)
 *   BENCH_REFILL=1    drop and refill even when the database already holds the expected rows
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import knexFactory, { type Knex } from 'knex';
import { loadConfig } from '@config/env.js';
import { encodeTimestamp } from '@db/codecs.js';
import { dialectOf, mysqlConnection } from '@db/knex.js';
import { createServerContext } from '@server/context.js';
import { rebuildDerivedData } from '@services/records/derived.js';
import { migrateToLatest } from '@services/schema.js';
import { createUser } from '@services/users/service.js';
import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import { fill, NOTE_TOPICS, places, volumesWithNotesFor, type Volumes } from './fill.js';
import { firstLoadOf, type FirstLoad } from './first-load.js';
import { workSurfaceRows } from './work-surface.js';
import { compareScale, progressLogger } from './scale.js';

/** The part of autocannon's API used here (the package ships no types). */
interface AutocannonResult {
  latency: { p50: number; p99: number };
  requests: { average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    workers?: number;
    headers?: Record<string, string>;
    title?: string;
    requests?: Array<{ method: string; setupRequest?: string }>;
  },
  done: (error: Error | null, result: AutocannonResult) => void,
) => unknown;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values: args } = parseArgs({
  options: { events: { type: 'string' }, only: { type: 'string' }, 'compare-to-events': { type: 'string' } },
});
const EVENTS = Number(args.events ?? 100_000);
if (!Number.isInteger(EVENTS) || EVENTS < 1000) throw new Error('--events must be a whole number of at least 1000');
const VOLUMES = volumesWithNotesFor(EVENTS);
const databaseUrlFor = (events: number) => `mysql://root@127.0.0.1:3306/pacer_bench${events === 100_000 ? '' : `_e${events}`}`;
const DATABASE_URL = process.env.DATABASE_URL ?? databaseUrlFor(EVENTS);
const COMPARE_EVENTS = args['compare-to-events'] === undefined ? undefined : Number(args['compare-to-events']);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const BENCH_EMAIL = 'bench@example.org';
const BENCH_PASSWORD = 'bench-password-123';
const ONLY = args.only?.split(',').map((word) => word.trim().toLowerCase());

async function ensureDatabase(url: string) {
  if (dialectOf(url) !== 'mysql') return;
  const connection = mysqlConnection(url);
  const admin = knexFactory({ client: 'mysql2', connection: { ...connection, database: undefined } });
  if (process.env.BENCH_REFILL === '1') await admin.raw('DROP DATABASE IF EXISTS ??', [connection.database!]);
  await admin.raw('CREATE DATABASE IF NOT EXISTS ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [connection.database!]);
  await admin.destroy();
}

async function isFilled(db: Knex, volumes: Volumes): Promise<boolean> {
  for (const [table, expected] of Object.entries(volumes)) {
    const row = (await db(table).count({ n: '*' }).first()) as { n: number | string };
    if (Number(row.n) !== expected) return false;
  }
  return true;
}

async function clear(db: Knex) {
  for (const table of [
    'note_mentions',
    'notes',
    'tasks',
    'contacts',
    'payments',
    'files',
    'event_distances',
    'run_club_schedules',
    ...RECORD_TYPES.map((t) => RECORD_TYPE_INFO[t].table),
  ])
    await db(table).delete();
}

/** The benchmark's user and nineteen colleagues (who never sign in), the people tasks are assigned to. */
async function teamIds(db: Knex): Promise<number[]> {
  const emails = Array.from({ length: 19 }, (_, i) => `colleague${i + 1}@example.org`);
  const known = new Set(await db('users').whereIn('email', emails).pluck('email'));
  const createdAt = encodeTimestamp(new Date());
  const missing = emails.filter((email) => !known.has(email));
  // No password anyone could use: they are assignees and authors, never signed in.
  if (missing.length)
    await db('users').insert(missing.map((email) => ({ email, passwordHash: '!', firstName: 'Colleague', lastName: email, createdAt })));
  const ids = await db('users')
    .whereIn('email', [BENCH_EMAIL, ...emails])
    .orderBy('id')
    .select('id', 'email');
  return [...ids.filter((user) => user.email === BENCH_EMAIL), ...ids.filter((user) => user.email !== BENCH_EMAIL)].map((user) =>
    Number(user.id),
  );
}

interface Target {
  title: string;
  /** The product's path and the limit server's path for the same answer (none: no limit for it). */
  path: string;
  limitPath?: string;
  /** The ratio this target must reach (issue 16), printed beside it. */
  goal?: string;
  /** Pages a second it must serve whatever the limit does (issue 15's dashboard), printed with whether it did. */
  minPerSec?: number;
  /** Search terms to rotate through, one per request (see bench/search-request.cjs). */
  terms?: string[];
  /** The title of another target, measured again right after this one, that its figures are compared with. */
  versusTarget?: string;
}

const PAGE_ONE = 'GET /api/events (list API, page 1)';
const DEEP_PAGE = 'GET /api/events?after=<cursor> (list API, page 4,000 by Next)';
/** Rows per page of the list API when no limit is named (PAGE_SIZE). */
const PAGE_ROWS = 24;

/**
 * The cursor the 3,999th page of events (newest first) answers as `next`, so the measured page is the 4,000th: read
 * once, before measuring, from that page by its offset (the last page there is on a smaller database).
 */
async function deepCursor(origin: string, cookie: string): Promise<string> {
  const page = Math.min(3999, Math.floor((EVENTS - 1) / PAGE_ROWS));
  const res = await fetch(`${origin}/api/events?offset=${(page - 1) * PAGE_ROWS}`, { headers: { cookie } });
  const body = (await res.json()) as { next?: string | null };
  if (res.status !== 200 || !body.next) throw new Error(`page ${page} of events gave no next cursor (status ${res.status})`);
  return body.next;
}

interface Measured {
  reqPerSec: number;
  p50: number;
  p99: number;
  failures: number;
}

function measure(url: string, headers: Record<string, string>, target: Target, seconds: number): Promise<Measured> {
  if (target.terms) process.env.BENCH_SEARCH_TERMS = JSON.stringify(target.terms);
  process.env.BENCH_SEARCH_PATH = new URL(url).pathname;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        workers: 1,
        // As a browser asks: the product's compression of pages and JSON is part of what is measured.
        headers: { 'accept-language': 'en-AU', 'accept-encoding': 'gzip, deflate, br', ...headers },
        title: target.title,
        requests: target.terms
          ? [{ method: 'GET', setupRequest: fileURLToPath(new URL('./search-request.cjs', import.meta.url)) }]
          : undefined,
      },
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              reqPerSec: result.requests.average,
              p50: result.latency.p50,
              p99: result.latency.p99,
              failures: result.non2xx + result.errors + result.timeouts,
            }),
    );
  });
}

/** Peak resident memory of a process so far (Linux), in MB. */
function peakRssMb(pid: number | undefined): number {
  const match = pid ? /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8')) : null;
  return match ? Number(match[1]) / 1024 : NaN;
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

const fixed = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  await ensureDatabase(DATABASE_URL);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    COOKIE_SECURE: 'false',
    LOG_LEVEL: 'warn',
    BCRYPT_COST: '12',
  });
  const ctx = await createServerContext(config);
  await migrateToLatest(ctx.db);

  if (!(await ctx.db('users').where({ email: BENCH_EMAIL }).first())) {
    await createUser(ctx, { email: BENCH_EMAIL, password: BENCH_PASSWORD, firstName: 'Bench', lastName: 'Mark' });
  }
  if (!(await isFilled(ctx.db, VOLUMES))) {
    console.log(`Filling the database with ${JSON.stringify(VOLUMES)} (this takes a while)…`);
    let started = Date.now();
    await clear(ctx.db);
    await fill(ctx.db, VOLUMES, await teamIds(ctx.db));
    console.log(`  records inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
    await rebuildDerivedData(ctx.db, undefined, { onProgress: progressLogger() });
    console.log(`  search index and counts built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else {
    console.log('Database already holds the benchmark volumes (BENCH_REFILL=1 to refill).');
  }
  const firstIds = Object.fromEntries(
    await Promise.all(
      RECORD_TYPES.map(async (type) => {
        const row = (await ctx.db(RECORD_TYPE_INFO[type].table).min({ id: 'id' }).first()) as { id: number };
        return [type, Number(row.id)] as const;
      }),
    ),
  );
  await ctx.db.destroy();

  // Measure what we ship: the built server (production React and react-router) in its own process.
  await run(process.execPath, ['esbuild.config.mjs']);
  if (COMPARE_EVENTS !== undefined) {
    await compareScale({
      events: EVENTS,
      databaseUrl: DATABASE_URL,
      compareEvents: COMPARE_EVENTS,
      compareDatabaseUrl: process.env.COMPARE_DATABASE_URL ?? databaseUrlFor(COMPARE_EVENTS),
      seconds: SECONDS,
      only: ONLY,
      load: loadAverage,
      startProduct: async (databaseUrl) => {
        const env = {
          DATABASE_URL: databaseUrl,
          SESSION_SECRET: config.sessionSecret,
          COOKIE_SECURE: 'false',
          LOG_LEVEL: 'warn',
          NODE_ENV: 'production',
        };
        const product = await startServer('pacer', [process.execPath, 'dist/server.js'], env, '/readyz');
        return { origin: product.origin, cookie: await signIn(product.origin), stop: () => stop(product.child) };
      },
      measure: (url, cookie, terms, seconds) => measure(url, { cookie }, { title: 'scale', path: new URL(url).pathname, terms }, seconds),
    });
    return;
  }
  const env = { DATABASE_URL, SESSION_SECRET: config.sessionSecret, COOKIE_SECURE: 'false', LOG_LEVEL: 'warn', NODE_ENV: 'production' };
  const product = await startServer('pacer', [process.execPath, 'dist/server.js'], env, '/readyz');
  const limit =
    dialectOf(DATABASE_URL) === 'mysql'
      ? await startServer('limit', [process.execPath, '--import', 'tsx', 'bench/limit-server.tsx'], env, '/healthz')
      : null;
  if (!limit) console.log('The limit server speaks MySQL/MariaDB only: on SQLite the figures come without a limit.');
  try {
    const cookie = await signIn(product.origin);

    // 200 different five-letter fragments of place names (each in roughly 0.2–1 % of events), one per request.
    const terms = Array.from({ length: 200 }, (_, i) => {
      const place = places[(i * 7) % places.length]!.toLowerCase();
      const start = i % Math.max(1, place.length - 4);
      return place.slice(start, start + 5);
    });
    const targets: Target[] = [
      { title: 'GET / (dashboard)', path: '/', limitPath: '/', goal: '≥ 0.5×', minPerSec: 300 },
      ...RECORD_TYPES.map((type) => ({
        title: `GET ${RECORD_TYPE_INFO[type].path}/{id} (detail)`,
        path: `${RECORD_TYPE_INFO[type].path}/${firstIds[type]}`,
        limitPath: `${RECORD_TYPE_INFO[type].path}/${firstIds[type]}`,
        goal: '≥ 0.5×',
      })),
      ...RECORD_TYPES.map((type) => ({
        title: `GET ${RECORD_TYPE_INFO[type].path} (list page)`,
        path: RECORD_TYPE_INFO[type].path,
        limitPath: RECORD_TYPE_INFO[type].path,
        goal: '≥ 0.5×',
      })),
      { title: PAGE_ONE, path: '/api/events', limitPath: '/api/events', goal: '≥ 0.6×, p99 ≤ 20 ms' },
      // Following Next 3,999 times from page 1 arrives here: the page after page 3,999's cursor.
      {
        title: DEEP_PAGE,
        path: `/api/events?after=${await deepCursor(product.origin, cookie)}`,
        versusTarget: PAGE_ONE,
        goal: 'p99 ≤ 1.5× page 1',
      },
      { title: 'GET /api/events?q=<5 letters>', path: '/api/events', terms },
      // Issue 33: the benchmark's user holds one task in twenty (~5,000 at 100k tasks), due across a year.
      { title: 'GET /api/tasks?assignee=me&due=week', path: '/api/tasks?assignee=me&due=week', goal: 'p99 ≤ 30 ms' },
      // Each topic is in ~1 % of the notes, found through the documents of the records that hold them.
      { title: 'GET /api/search?q=<a word in ~1 % of notes>', path: '/api/search', terms: NOTE_TOPICS, goal: 'p99 ≤ 100 ms' },
      // Issue 33: the first event holds 35 notes and 15 tasks, so its timeline's first page is 50 entries read from
      // the notes, the tasks, its history and its payments, files and contacts, next to its detail page.
      {
        title: 'GET /api/events/{id}/activity (timeline, 50 entries)',
        path: `/api/events/${firstIds.event}/activity`,
        versusTarget: `GET ${RECORD_TYPE_INFO.event.path}/{id} (detail)`,
        goal: 'p99 ≤ 1.5× the detail page',
      },
    ].filter((target) => !ONLY || ONLY.some((word) => target.title.toLowerCase().includes(word)));

    for (const target of targets) {
      // A searched target is probed with its first term (the global search needs one).
      const probePath = target.terms ? `${target.path}?q=${encodeURIComponent(target.terms[0]!)}` : target.path;
      const probe = await fetch(product.origin + probePath, { headers: { cookie } });
      const body = await probe.text();
      const limitBody = limit && target.limitPath ? await (await fetch(limit.origin + target.limitPath)).text() : '';
      if (probe.status !== 200) throw new Error(`${target.title}: status ${probe.status}`);
      console.log(`${target.title}: ${kb(body.length)}${limitBody ? ` (limit ${kb(limitBody.length)})` : ''}`);
    }

    console.log(
      `\n${dialectOf(DATABASE_URL) === 'mysql' ? 'MariaDB/MySQL' : 'SQLite'}, ${EVENTS} events, ${CONNECTIONS} connections, ${SECONDS} s each`,
    );
    const rows: string[] = ['| request | Pacer | limit server, same run | Pacer ÷ limit | goal |', '|---|---|---|---|---|'];
    const figure = (m: Measured) =>
      `${fixed(m.reqPerSec)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${m.failures ? `, ${m.failures} FAILED` : ''}`;
    for (const target of targets) {
      const ours = () => measure(product.origin + target.path, { cookie }, target, SECONDS);
      const theirs = () => measure(limit!.origin + target.limitPath!, {}, target, SECONDS);
      const hasLimit = Boolean(limit && target.limitPath);
      // A short warm-up fills connection pools and JIT caches before each measured run.
      await measure(product.origin + target.path, { cookie }, target, 2);
      const pacer = await ours();
      let versus: Measured | null = null;
      if (hasLimit) {
        await theirs();
        versus = await theirs();
      }
      // A target compared with another of the product's answers has that one measured again right after it, back to
      // back as the limit is, so both meet the same load on a shared machine.
      const reference = targets.find((other) => other.title === target.versusTarget);
      const earlier = reference ? await measure(product.origin + reference.path, { cookie }, reference, SECONDS) : undefined;
      const ratio = versus
        ? `${(pacer.reqPerSec / versus.reqPerSec).toFixed(2)}× req/s, p99 ${(pacer.p99 / Math.max(versus.p99, 1)).toFixed(2)}×`
        : earlier
          ? `÷ page 1: ${(pacer.reqPerSec / earlier.reqPerSec).toFixed(2)}× req/s, p99 ${(pacer.p99 / Math.max(earlier.p99, 1)).toFixed(2)}×`
          : '—';
      const absolute = target.minPerSec
        ? `; ≥ ${target.minPerSec} pages/s: ${fixed(pacer.reqPerSec)}, ${pacer.reqPerSec >= target.minPerSec ? 'met' : 'NOT met'}`
        : '';
      rows.push(
        `| ${target.title} | ${figure(pacer)} | ${versus ? figure(versus) : earlier ? `page 1 right after: ${figure(earlier)}` : '—'} | ${ratio} | ${target.goal ?? 'information only'}${absolute} |`,
      );
      console.log(rows[rows.length - 1], `(load ${loadAverage()})`);
    }

    // Issue 12's work-surface figures (global search, CSV export), on this database and server: bench/work-surface.ts.
    if (!ONLY || ONLY.some((word) => ['search', 'export'].includes(word))) {
      const workSurface = {
        origin: product.origin,
        cookie,
        serverPid: product.child.pid!,
        events: EVENTS,
        env,
        seconds: SECONDS,
        measure: (url: string, seconds: number) =>
          measure(url, { cookie }, { title: 'work surface', path: new URL(url).pathname }, seconds),
      };
      rows.push(...(await workSurfaceRows(workSurface, loadAverage)));
    }

    const loads: Array<[string, FirstLoad, FirstLoad | null]> = [];
    for (const path of [
      '/',
      RECORD_TYPE_INFO.event.path,
      `${RECORD_TYPE_INFO.event.path}/${firstIds.event}`,
      RECORD_TYPE_INFO.brand.path,
    ]) {
      loads.push([
        `first-load JavaScript of ${path}`,
        await firstLoadOf(product.origin, path, cookie),
        limit ? await firstLoadOf(limit.origin, path) : null,
      ]);
    }
    // Signed out, the page loads the auth pages' own entry (no router): the issue wants it much lighter.
    const signInLoad = await firstLoadOf(product.origin, '/', '');
    const limitSignIn = limit ? await firstLoadOf(limit.origin, '/') : null;
    loads.push(['first-load JavaScript of the sign-in page', signInLoad, limitSignIn]);
    for (const [title, ours, theirs] of loads) {
      const describe = (load: FirstLoad) => `${kb(load.gzipBytes)} gzip (${kb(load.rawBytes)} raw, ${load.files} files)`;
      const goal = ours === signInLoad ? 'much less than 130 KB gzip' : '≤ 130 KB gzip';
      rows.push(
        `| ${title} | ${describe(ours)} | ${theirs ? describe(theirs) : '—'} | ${theirs ? `${(ours.gzipBytes / theirs.gzipBytes).toFixed(2)}×` : '—'} | ${goal} |`,
      );
    }
    rows.push(
      `| peak RSS of the server during the load | ${fixed(peakRssMb(product.child.pid))} MB | ${limit ? `${fixed(peakRssMb(limit.child.pid))} MB` : '—'} | ${limit ? `${(peakRssMb(product.child.pid) / peakRssMb(limit.child.pid)).toFixed(2)}×` : '—'} | information only |`,
    );
    console.log(`\n${rows.join('\n')}\n\nload average at the end: ${loadAverage()}`);
  } finally {
    for (const server of [product, limit]) if (server) await stop(server.child);
  }
}

/** Signs the benchmark's user in and answers the session cookie. */
async function signIn(origin: string): Promise<string> {
  const login = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const sessionCookie = login.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
  // Requests carry what a returning browser carries: the session and the cookie saying it has the stylesheet
  // cached (a browser's first page carries the stylesheet inline and sets it; later pages link to the file).
  const firstPage = await fetch(`${origin}/`, { headers: { cookie: sessionCookie } });
  await firstPage.text();
  return [sessionCookie, ...firstPage.headers.getSetCookie().map((header) => header.split(';')[0])].join('; ');
}

function run(command: string, commandArgs: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${commandArgs.join(' ')} exited with ${code}`))));
  });
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Starts a server on a free port and resolves once its health path answers. */
async function startServer(
  name: string,
  [command, ...commandArgs]: string[],
  env: Record<string, string>,
  healthPath: string,
): Promise<{ child: ChildProcess; origin: string }> {
  const port = await freePort();
  const child = spawn(command!, commandArgs, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => console.log(`${name} server exited (${signal ?? `code ${code}`})`));
  const origin = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 100) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    const healthy = await fetch(origin + healthPath).then(
      (res) => res.ok,
      () => false,
    );
    if (healthy) return { child, origin };
    if (waited > 60_000) throw new Error(`${name} did not become healthy in 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
