/**
 * `npm run bench:work-surface`: the figures of issue 12 on MariaDB at the issue's volumes (100k events, 20k
 * professionals, 10k run clubs, 10k brands, 5k media, 5k influencers, 200k contacts), in its own database
 * `pacer_bench_ws`:
 *   - GET /api/search p99 with 20 connections, for a term in about 1 % of events and for a rare term;
 *   - GET /api/export/events (all 100k): time to the last byte, and how much the server's RSS grows meanwhile.
 * The built server runs in its own process, so its RSS is read from /proc. Settings:
 *   DATABASE_URL    default mysql://root@127.0.0.1:3306/pacer_bench_ws (created and filled if it is not yet)
 *   BENCH_SECONDS   seconds per latency measurement (default 10)
 *   BENCH_REFILL=1  drop and refill
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import knexFactory, { type Knex } from 'knex';
import { loadConfig } from '@config/env.js';
import { encodeList, encodeTimestamp } from '@db/codecs.js';
import { dialectOf, mysqlConnection } from '@db/knex.js';
import { createServerContext } from '@server/context.js';
import { rebuildDerivedData } from '@services/records/derived.js';
import { migrateToLatest } from '@services/schema.js';
import { createUser } from '@services/users/service.js';
import { LOCATION_STATES } from '@shared/schemas/records.js';

interface LoadResult {
  latency: { p50: number; p99: number };
  requests: { average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type LoadTester = (
  options: { url: string; connections: number; duration: number; headers: Record<string, string> },
  done: (error: Error | null, result: LoadResult) => void,
) => unknown;
// autocannon ships no types; this is the part used here.
const loadTest = createRequire(import.meta.url)('autocannon') as LoadTester;

const DATABASE_URL = process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/pacer_bench_ws';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 20;
const VOLUMES = {
  events: 100_000,
  professionals: 20_000,
  run_clubs: 10_000,
  brands: 10_000,
  media: 5_000,
  influencers: 5_000,
  contacts: 200_000,
} as const;
const EMAIL = 'bench-ws@example.org';
const PASSWORD = 'bench-work-surface-1';

/** A repeatable pseudo-random sequence, so every fill holds the same names. */
let state = 12_2026;
const next = () => {
  state = (Math.imul(state, 48271) + 11) >>> 0;
  return state / 2 ** 32;
};
const oneOf = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
const parts = ['wa', 'ron', 'gil', 'bar', 'emu', 'tal', 'kin', 'dor', 'pel', 'mira', 'nook', 'sal', 'vin', 'oak', 'fen', 'lan'];
/** About 800 made-up towns: one town's name is in roughly 1 of every 800 records that name a town. */
const towns = Array.from({ length: 800 }, (_, i) => {
  const name = `${oneOf(parts)}${oneOf(parts)}${oneOf(parts)}`;
  return `${name[0]!.toUpperCase()}${name.slice(1)}${i % 7 === 0 ? 'ville' : ''}`;
});
const kinds = ['Marathon', 'Fun Run', 'Trail Run', 'Parkrun', 'Ultra', 'Relay'];

async function insertAll(db: Knex, table: string, count: number, row: (i: number) => Record<string, unknown>) {
  for (let start = 0; start < count; start += 1000) {
    await db(table).insert(Array.from({ length: Math.min(1000, count - start) }, (_, i) => row(start + i)));
  }
}

async function fill(db: Knex) {
  const now = encodeTimestamp(new Date());
  const audit = { createdAt: now, updatedAt: now };
  const emptyList = encodeList([]);
  // Two towns per event (its name and its address), so a town's name is in about 0.25 % of events.
  await insertAll(db, 'events', VOLUMES.events, (i) => ({
    eventName: `${oneOf(towns)} ${oneOf(kinds)} ${2020 + (i % 8)}`,
    eventStartDate: next() < 0.9 ? `202${Math.floor(next() * 8)}-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}` : null,
    locationState: oneOf(LOCATION_STATES),
    locationAddress: `${1 + (i % 200)} Main St, ${oneOf(towns)}`,
    runType: emptyList,
    trackType: emptyList,
    galleryImages: emptyList,
    featuredRace: i % 10 === 0 ? 1 : 0,
    totalAdvertisingSpend: `${i % 5000}.${String(i % 100).padStart(2, '0')}`,
    notes: `Imported for the work-surface bench, row ${i}`,
    ...audit,
  }));
  await insertAll(db, 'professionals', VOLUMES.professionals, (i) => ({
    businessName: `${oneOf(towns)} Physio ${i}`,
    subscriptionStatus: 'active',
    totalPayments: '0.00',
    paymentAlertFlag: 0,
    ...audit,
  }));
  await insertAll(db, 'run_clubs', VOLUMES.run_clubs, (i) => ({
    clubName: `${oneOf(towns)} Runners ${i}`,
    clubType: encodeList(['road']),
    meetingTimes: emptyList,
    isPayingMember: 0,
    paymentStatus: 'none',
    totalPayments: '0.00',
    ...audit,
  }));
  await insertAll(db, 'brands', VOLUMES.brands, (i) => ({
    brandName: `${oneOf(towns)} Shoes ${i}`,
    totalAdvertisingSpend: '0.00',
    paymentStatus: 'current',
    ...audit,
  }));
  await insertAll(db, 'media', VOLUMES.media, (i) => ({ mediaName: `${oneOf(towns)} Weekly ${i}`, ...audit }));
  await insertAll(db, 'influencers', VOLUMES.influencers, (i) => ({
    firstName: 'Sam',
    lastName: oneOf(towns),
    influencerType: 'influencer',
    instagramHandle: `runner_${i}`,
    ...audit,
  }));
  // Contacts spread over the brands (ids 1…10,000 after a fresh fill).
  await insertAll(db, 'contacts', VOLUMES.contacts, (i) => ({
    firstName: oneOf(['Ana', 'Bo', 'Cy', 'Dee', 'Eli', 'Fay']),
    lastName: oneOf(towns),
    email: `person${i}@example.org`,
    mailchimpTags: emptyList,
    entityType: 'brand',
    entityId: 1 + (i % VOLUMES.brands),
    isPrimary: 0,
    ...audit,
  }));
}

async function ensureDatabase(refill: boolean) {
  const connection = mysqlConnection(DATABASE_URL);
  const admin = knexFactory({ client: 'mysql2', connection: { ...connection, database: undefined } });
  if (refill) await admin.raw('DROP DATABASE IF EXISTS ??', [connection.database!]);
  await admin.raw('CREATE DATABASE IF NOT EXISTS ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [connection.database!]);
  await admin.destroy();
}

async function filled(db: Knex): Promise<boolean> {
  for (const [table, expected] of Object.entries(VOLUMES)) {
    const row = (await db(table).count({ n: '*' }).first()) as { n: number | string };
    if (Number(row.n) !== expected) return false;
  }
  return true;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The built server in its own process (so its memory is its own), once it answers /readyz. */
async function startServer(sessionSecret: string): Promise<{ server: ChildProcess; origin: string }> {
  execFileSync(process.execPath, ['esbuild.config.mjs'], { stdio: 'inherit' });
  const port = await freePort();
  const server = spawn(process.execPath, ['dist/server.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL,
      SESSION_SECRET: sessionSecret,
      COOKIE_SECURE: 'false',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    if (
      await fetch(`${origin}/readyz`).then(
        (res) => res.ok,
        () => false,
      )
    )
      return { server, origin };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not become ready in 60 s');
}

/** Resident memory of a process, in bytes (Linux). */
function rssOf(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return line ? Number(line[1]) * 1024 : 0;
}

const measure = (url: string, cookie: string, seconds: number) =>
  new Promise<LoadResult>((resolve, reject) =>
    loadTest({ url, connections: CONNECTIONS, duration: seconds, headers: { cookie } }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );

async function main() {
  if (dialectOf(DATABASE_URL) !== 'mysql') throw new Error('This bench measures MariaDB/MySQL: set a mysql:// DATABASE_URL');
  await ensureDatabase(process.env.BENCH_REFILL === '1');
  const sessionSecret = randomBytes(32).toString('hex');
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL,
    SESSION_SECRET: sessionSecret,
    COOKIE_SECURE: 'false',
    LOG_LEVEL: 'warn',
  });
  const ctx = await createServerContext(config);
  await migrateToLatest(ctx.db);
  if (!(await filled(ctx.db))) {
    console.log('Filling pacer_bench_ws…');
    const started = Date.now();
    for (const table of ['contacts', 'payments', 'files', 'event_distances', 'run_club_schedules', ...Object.keys(VOLUMES)])
      await ctx.db(table).delete();
    await fill(ctx.db);
    await rebuildDerivedData(ctx.db);
    console.log(`  filled and indexed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  if (!(await ctx.db('users').where({ email: EMAIL }).first())) {
    await createUser(ctx, { email: EMAIL, password: PASSWORD, firstName: 'Bench', lastName: 'WorkSurface' });
  }
  await ctx.db.destroy();

  const { server, origin } = await startServer(sessionSecret);
  try {
    const login = await fetch(`${origin}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`sign-in failed: ${login.status}`);
    const cookie = login.headers
      .getSetCookie()
      .map((header) => header.split(';')[0])
      .join('; ');
    const eventsMatching = async (term: string) =>
      (
        (await (await fetch(`${origin}/api/search?q=${encodeURIComponent(term)}`, { headers: { cookie } })).json()) as {
          groups: Array<{ type: string; total: number }>;
        }
      ).groups.find((group) => group.type === 'event')!.total;

    // The town whose name is in the number of events closest to 1 % of them.
    let common = { term: '', total: 0 };
    for (const town of towns.slice(0, 40)) {
      const total = await eventsMatching(town.toLowerCase());
      if (Math.abs(total - VOLUMES.events / 100) < Math.abs(common.total - VOLUMES.events / 100))
        common = { term: town.toLowerCase(), total };
    }
    const rare = 'runner_4321';
    console.log(`Terms: "${common.term}" is in ${common.total} events; "${rare}" names one influencer.`);

    const lines: string[] = [];
    // The export first, on an idle server: every event, read to the last byte, with the server's RSS sampled meanwhile.
    const before = rssOf(server.pid!);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(server.pid!))), 20);
    const started = performance.now();
    const res = await fetch(`${origin}/api/export/events`, { headers: { cookie } });
    let bytes = 0;
    let rows = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 0x0a) rows += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    lines.push(
      `GET /api/export/events: ${rows - 1} rows, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(2)} s; server RSS ${(before / 1e6).toFixed(0)} MB → peak ${(peak / 1e6).toFixed(0)} MB (+${((peak - before) / 1e6).toFixed(1)} MB) (≤ 2 s, ≤ 50 MB growth)`,
    );
    console.log(lines.at(-1));
    for (const [label, term, goal] of [
      [`~1 % term (${common.term})`, common.term, 'p99 ≤ 100 ms'],
      [`rare term (${rare})`, rare, 'p99 ≤ 30 ms'],
    ] as const) {
      const url = `${origin}/api/search?q=${encodeURIComponent(term)}`;
      await measure(url, cookie, 2);
      const result = await measure(url, cookie, SECONDS);
      const failed = result.non2xx + result.errors + result.timeouts;
      lines.push(
        `GET /api/search ${label}: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.average.toFixed(0)} req/s${failed ? `, ${failed} failed` : ''} (${goal})`,
      );
      console.log(lines.at(-1));
    }

    console.log(`\nMariaDB, ${CONNECTIONS} connections, ${SECONDS} s per latency run:\n${lines.join('\n')}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
