/**
 * `npm run bench`: fills a database with the issue's record volumes, starts the app in this process on a free
 * port, signs in, and measures the records list, a substring search and the server-rendered list page with
 * autocannon (20 connections). Load generation runs in a worker thread so it does not share the server's event
 * loop. Settings:
 *   DATABASE_URL      default mysql://root@127.0.0.1:3306/pacer_bench (created if missing; sqlite:… works too)
 *   BENCH_SECONDS     seconds per measurement (default 10)
 *   BENCH_REFILL=1    drop and refill even when the database already holds the expected rows
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import knexFactory, { type Knex } from 'knex';
import { loadConfig, type Config } from '@config/env.js';
import { encodeList, encodeTimestamp } from '@db/codecs.js';
import { dialectOf, mysqlConnection } from '@db/knex.js';
import { migrateToLatest } from '@services/schema.js';
import { createServerContext } from '@server/context.js';
import { rebuildDerivedData } from '@services/records/derived.js';
import { createUser } from '@services/users/service.js';
import { CLUB_TYPES, LOCATION_STATES, PROFESSION_TYPES } from '@shared/schemas/records.js';

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

const DATABASE_URL = process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/pacer_bench';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const VOLUMES = { events: 100_000, professionals: 20_000, run_clubs: 10_000, brands: 10_000, media: 5_000, influencers: 5_000 } as const;
const BENCH_EMAIL = 'bench@example.org';
const BENCH_PASSWORD = 'bench-password-123';

// ---------------------------------------------------------------------------------------------------------
// Deterministic sample data: made-up place names from syllables give search a realistic spread of trigrams.

let seed = 20261121;
function random(): number {
  seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
  return seed / 2 ** 32;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const syllables = [
  'ka',
  'lo',
  'mar',
  'ben',
  'dra',
  'wil',
  'tor',
  'quay',
  'yar',
  'ra',
  'gum',
  'bri',
  'ston',
  'hill',
  'vale',
  'port',
  'nes',
  'ga',
  'lee',
  'mun',
  'dar',
  'coo',
  'bel',
  'ting',
];
const capitalise = (text: string) => text[0]!.toUpperCase() + text.slice(1);
const places = Array.from({ length: 600 }, () =>
  capitalise(Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick(syllables)).join('')),
);
const streets = ['Main St', 'High St', 'Beach Rd', 'Park Ave', 'Station St', 'Ridge Rd', 'Bay Pde', 'Church St'];
const raceWords = ['Marathon', 'Half Marathon', 'Fun Run', '10K', 'Trail Run', 'Ultra', 'Parkrun', 'Relay', 'Fell Race', 'Night Run'];
const adjectives = ['Great', 'Coastal', 'Winter', 'Summer', 'Spring', 'Classic', 'Midnight', 'Sunrise', 'Harbour', 'Mountain'];
const address = () => `${1 + Math.floor(random() * 300)} ${pick(streets)}, ${pick(places)}`;

async function bulkInsert(db: Knex, table: string, count: number, make: (i: number) => Record<string, unknown>) {
  // Knex writes a multi-row SQLite insert as a compound SELECT, which SQLite caps at 500 terms.
  const batch = dialectOf(DATABASE_URL) === 'sqlite' ? 400 : 1000;
  for (let start = 0; start < count; start += batch) {
    const rows = Array.from({ length: Math.min(batch, count - start) }, (_, i) => make(start + i));
    await db(table).insert(rows);
  }
}

async function fill(db: Knex) {
  const now = encodeTimestamp(new Date());
  const audit = { createdAt: now, updatedAt: now };
  await bulkInsert(db, 'events', VOLUMES.events, (i) => ({
    eventName: `${pick(places)} ${pick(adjectives)} ${pick(raceWords)} ${2020 + (i % 8)}`,
    wordpressEventId: 100_000 + i,
    eventStartDate:
      random() < 0.9
        ? `202${Math.floor(random() * 8)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`
        : null,
    locationState: pick(LOCATION_STATES),
    locationAddress: address(),
    runType: encodeList([pick(['road', 'trail'])]),
    trackType: encodeList([]),
    galleryImages: encodeList([]),
    featuredRace: random() < 0.1 ? 1 : 0,
    totalAdvertisingSpend: '0.00',
    ...audit,
  }));
  await bulkInsert(db, 'professionals', VOLUMES.professionals, (i) => ({
    businessName: `${pick(places)} ${pick(['Physio', 'Coaching', 'Sports Clinic', 'Running Lab', 'Podiatry'])} ${i}`,
    professionType: pick(PROFESSION_TYPES),
    locationState: pick(LOCATION_STATES),
    wordpressProfessionalId: i % 2 === 0 ? 500_000 + i : null,
    subscriptionStatus: 'active',
    totalPayments: '0.00',
    paymentAlertFlag: 0,
    ...audit,
  }));
  await bulkInsert(db, 'run_clubs', VOLUMES.run_clubs, (i) => ({
    clubName: `${pick(places)} ${pick(['Runners', 'Striders', 'Harriers', 'Trail Club', 'Run Crew'])} ${i}`,
    locationState: pick(LOCATION_STATES),
    clubType: encodeList([pick(CLUB_TYPES)]),
    meetingTimes: encodeList(['Sat 6:30am']),
    isPayingMember: 0,
    paymentStatus: 'none',
    totalPayments: '0.00',
    ...audit,
  }));
  await bulkInsert(db, 'brands', VOLUMES.brands, (i) => ({
    brandName: `${pick(places)} ${pick(['Shoes', 'Apparel', 'Nutrition', 'Watches', 'Hydration'])} ${i}`,
    industryCategory: pick(['Footwear', 'Apparel', 'Nutrition', 'Technology', 'Retail']),
    totalAdvertisingSpend: '0.00',
    paymentStatus: 'current',
    ...audit,
  }));
  await bulkInsert(db, 'media', VOLUMES.media, (i) => ({
    mediaName: `${pick(places)} ${pick(['Gazette', 'Runner', 'Podcast', 'Radio', 'Weekly'])} ${i}`,
    industry: pick(['Magazine', 'Podcast', 'Newspaper', 'Radio', 'Blog']),
    ...audit,
  }));
  await bulkInsert(db, 'influencers', VOLUMES.influencers, (i) => ({
    firstName: capitalise(pick(syllables) + pick(syllables)),
    lastName: pick(places),
    influencerType: pick(['influencer', 'pro', 'both']),
    instagramHandle: `runner_${i}`,
    ...audit,
  }));
}

// ---------------------------------------------------------------------------------------------------------

async function ensureDatabase(url: string) {
  if (dialectOf(url) !== 'mysql') return;
  const connection = mysqlConnection(url);
  const admin = knexFactory({ client: 'mysql2', connection: { ...connection, database: undefined } });
  if (process.env.BENCH_REFILL === '1') await admin.raw('DROP DATABASE IF EXISTS ??', [connection.database!]);
  await admin.raw('CREATE DATABASE IF NOT EXISTS ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [connection.database!]);
  await admin.destroy();
}

async function isFilled(db: Knex): Promise<boolean> {
  for (const [table, expected] of Object.entries(VOLUMES)) {
    const row = (await db(table).count({ n: '*' }).first()) as { n: number | string };
    if (Number(row.n) !== expected) return false;
  }
  return true;
}

async function clear(db: Knex) {
  for (const table of ['contacts', 'payments', 'files', 'event_distances', 'run_club_schedules', ...Object.keys(VOLUMES)])
    await db(table).delete();
}

interface Target {
  title: string;
  path: string;
  goal: string;
  /** Search terms to rotate through, one per request (see bench/search-request.cjs). */
  terms?: string[];
}

function measure(origin: string, cookie: string, target: Target, seconds: number): Promise<AutocannonResult> {
  if (target.terms) process.env.BENCH_SEARCH_TERMS = JSON.stringify(target.terms);
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: origin + target.path,
        connections: CONNECTIONS,
        duration: seconds,
        workers: 1,
        headers: { cookie, 'accept-language': 'en-AU' },
        title: target.title,
        requests: target.terms
          ? [{ method: 'GET', setupRequest: fileURLToPath(new URL('./search-request.cjs', import.meta.url)) }]
          : undefined,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

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

  if (!(await isFilled(ctx.db))) {
    console.log('Filling the database (this takes a while)…');
    let started = Date.now();
    await clear(ctx.db);
    await fill(ctx.db);
    console.log(`  records inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
    await rebuildDerivedData(ctx.db);
    console.log(`  search index and counts built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else {
    console.log('Database already holds the benchmark volumes (BENCH_REFILL=1 to refill).');
  }
  if (!(await ctx.db('users').where({ email: BENCH_EMAIL }).first())) {
    await createUser(ctx, { email: BENCH_EMAIL, password: BENCH_PASSWORD, firstName: 'Bench', lastName: 'Mark' });
  }

  // Measure what we ship: the built server (production React and react-router) in its own process.
  const { server, origin } = await startBuiltServer(config);
  const login = await fetch(`${origin}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
  });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');

  // 200 different five-letter fragments of place names (each in roughly 0.2–1 % of events), one per request.
  const terms = Array.from({ length: 200 }, (_, i) => {
    const place = places[(i * 7) % places.length]!.toLowerCase();
    const start = i % Math.max(1, place.length - 4);
    return place.slice(start, start + 5);
  });
  const targets: Target[] = [
    { title: 'GET /api/events (first page)', path: '/api/events', goal: 'p99 ≤ 30 ms' },
    { title: 'GET /api/events?q=<5 letters>', path: '/api/events', goal: 'p99 ≤ 150 ms', terms },
    { title: 'GET /events (server-rendered)', path: '/events', goal: '≥ 300 req/s' },
    // For orientation, not a target: a fragment found in about a quarter of all events.
    { title: 'GET /api/events?q=marathon', path: '/api/events?q=marathon', goal: 'information only' },
  ];
  let matched = 0;
  for (const term of terms) {
    const res = await fetch(`${origin}/api/events?q=${encodeURIComponent(term)}`, { headers: { cookie } });
    matched += ((await res.json()) as { total: number }).total;
  }
  console.log(
    `\nSearch terms: ${terms.length} fragments such as ${terms.slice(0, 4).join(', ')}; on average ${Math.round(matched / terms.length)} of ${VOLUMES.events} events match`,
  );
  for (const target of targets.filter((t) => !t.terms)) {
    const probe = await fetch(origin + target.path, { headers: { cookie } });
    const body = await probe.text();
    const detail = target.path.startsWith('/api/')
      ? `total ${(JSON.parse(body) as { total: number }).total}`
      : `${body.length} bytes of HTML`;
    console.log(`${target.title}: status ${probe.status}, ${detail}`);
  }

  const rows: string[] = [];
  for (const target of targets) {
    // A short warm-up fills connection pools and JIT caches before the measured run.
    await measure(origin, cookie, target, 2);
    const result = await measure(origin, cookie, target, SECONDS);
    const failures = result.non2xx + result.errors + result.timeouts;
    rows.push(
      `${target.title.padEnd(34)} p50 ${String(result.latency.p50).padStart(5)} ms   p99 ${String(result.latency.p99).padStart(5)} ms   ${result.requests.average.toFixed(0).padStart(6)} req/s   ${failures ? `${failures} failed   ` : ''}(${target.goal})`,
    );
    console.log(rows[rows.length - 1]);
  }
  console.log(
    `\n${dialectOf(DATABASE_URL) === 'mysql' ? 'MariaDB/MySQL' : 'SQLite'}, ${CONNECTIONS} connections, ${SECONDS} s each:\n${rows.join('\n')}`,
  );

  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  await ctx.db.destroy();
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Builds the app and starts dist/server.js against the benchmark database; resolves once it answers /readyz. */
async function startBuiltServer(config: Config): Promise<{ server: ChildProcess; origin: string }> {
  execFileSync(process.execPath, ['esbuild.config.mjs'], { stdio: 'inherit' });
  const port = await freePort();
  const server = spawn(process.execPath, ['dist/server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL,
      SESSION_SECRET: config.sessionSecret,
      COOKIE_SECURE: 'false',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  for (let waited = 0; ; waited += 200) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    const ready = await fetch(`${origin}/readyz`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) return { server, origin };
    if (waited > 60_000) throw new Error('the server did not become ready in 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
