/**
 * The scale comparison of issue 16 (`npm run bench -- --events 1000000 --compare-to-events 100000`): the list API,
 * search (a term in about 1 % of the events and a rare one), the events list page and an event's detail page,
 * measured on the large database and on the small one (read only: never filled or changed here) by two built
 * servers, one request kind at a time, back to back; each printed with the ratio large ÷ small (p99, and small ÷
 * large for req/s) against the goal ≤ 1.5×. Then the size of both databases, per table and per 100,000 events.
 */
import knexFactory, { type Knex } from 'knex';
import { mysqlConnection } from '@db/knex.js';
import { reindexProgress } from '@cli/commands/db.js';
import type { RebuildProgress } from '@services/records/derived.js';
import { onePercentTerm, RARE_TERM } from './work-surface.js';

interface Latency {
  reqPerSec: number;
  p50: number;
  p99: number;
  failures: number;
}

interface Product {
  origin: string;
  cookie: string;
  stop(): Promise<void>;
}

export interface ScaleBench {
  events: number;
  databaseUrl: string;
  compareEvents: number;
  compareDatabaseUrl: string;
  seconds: number;
  /** Words picking the requests measured (`--only`), or all of them. */
  only?: readonly string[];
  load(): string;
  /** Starts the built server on a database and signs the benchmark's user in. */
  startProduct(databaseUrl: string): Promise<Product>;
  /** One autocannon run of a path (with search terms: one term per request, rotating). */
  measure(url: string, cookie: string, terms: string[] | undefined, seconds: number): Promise<Latency>;
}

/** The rebuild's progress on stdout's neighbour, as `pacer db reindex` shows it. */
export function progressLogger(): (progress: RebuildProgress) => void {
  const progress = reindexProgress(process.stderr);
  return (step) => progress.update(step);
}

const connect = (url: string) => knexFactory({ client: 'mysql2', connection: mysqlConnection(url), pool: { min: 0, max: 1 } });

async function eventsIn(db: Knex): Promise<{ count: number; firstId: number }> {
  const row = (await db('events').count({ n: '*' }).min({ first: 'id' }).first()) as { n: number | string; first: number };
  return { count: Number(row.n), firstId: Number(row.first) };
}

interface TableSize {
  table: string;
  rows: number;
  data: number;
  index: number;
}

/** Bytes per table from information_schema (InnoDB's allocated pages; the row counts are estimates). */
async function tableSizes(db: Knex): Promise<TableSize[]> {
  const [rows] = (await db.raw(
    `SELECT table_name AS name, table_rows AS estimate, data_length AS data, index_length AS idx
       FROM information_schema.tables WHERE table_schema = DATABASE() ORDER BY data_length + index_length DESC`,
  )) as [Array<{ name: string; estimate: number | string; data: number | string; idx: number | string }>];
  return rows.map((row) => ({ table: row.name, rows: Number(row.estimate), data: Number(row.data), index: Number(row.idx) }));
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

function sizeRows(events: number, sizes: TableSize[]): string[] {
  const per100k = (bytes: number) => mb((bytes * 100_000) / events);
  const total = sizes.reduce((sum, size) => sum + size.data + size.index, 0);
  const shown = sizes.filter((size) => size.data + size.index >= total / 200);
  const rest = sizes.filter((size) => !shown.includes(size));
  const rows = shown.map(
    (size) =>
      `| ${size.table} | ~${size.rows.toLocaleString('en')} | ${mb(size.data)} | ${mb(size.index)} | ${per100k(size.data + size.index)} | ${((100 * (size.data + size.index)) / total).toFixed(0)} % |`,
  );
  const restBytes = rest.reduce((sum, size) => sum + size.data + size.index, 0);
  rows.push(`| ${rest.length} other tables | | | | ${per100k(restBytes)} | ${((100 * restBytes) / total).toFixed(0)} % |`);
  rows.push(`| **all** | | | | **${per100k(total)}** | 100 % |`);
  return [
    `\nDatabase size at ${events.toLocaleString('en')} events: ${mb(total)} MB, ${per100k(total)} MB per 100,000 events`,
    '| table | rows | data MB | indexes MB | MB per 100,000 events | share |',
    '|---|---|---|---|---|---|',
    ...rows,
  ];
}

export async function compareScale(bench: ScaleBench): Promise<void> {
  const large = connect(bench.databaseUrl);
  const small = connect(bench.compareDatabaseUrl);
  let largeEvents: { count: number; firstId: number };
  let smallEvents: { count: number; firstId: number };
  const sizes: string[] = [];
  try {
    [largeEvents, smallEvents] = [await eventsIn(large), await eventsIn(small)];
    if (smallEvents.count !== bench.compareEvents) {
      throw new Error(
        `${bench.compareDatabaseUrl} holds ${smallEvents.count} events, not ${bench.compareEvents}: fill it with --events first`,
      );
    }
    sizes.push(...sizeRows(bench.compareEvents, await tableSizes(small)), ...sizeRows(bench.events, await tableSizes(large)));
  } finally {
    await large.destroy();
    await small.destroy();
  }

  const [big, little] = [await bench.startProduct(bench.databaseUrl), await bench.startProduct(bench.compareDatabaseUrl)];
  try {
    // The term is chosen on the large database (the data are generated alike at both sizes): one term for both.
    const common = await onePercentTerm({ origin: big.origin, cookie: big.cookie, events: bench.events });
    const targets: Array<{ title: string; path: (firstId: number) => string }> = [
      { title: 'GET /api/events (list API, page 1)', path: () => '/api/events' },
      {
        title: `GET /api/search, a term in ~1 % of events ("${common.term}")`,
        path: () => `/api/search?q=${encodeURIComponent(common.term)}`,
      },
      { title: `GET /api/search, a rare term ("${RARE_TERM}")`, path: () => `/api/search?q=${encodeURIComponent(RARE_TERM)}` },
      { title: 'GET /events (list page)', path: () => '/events' },
      { title: 'GET /events/{id} (detail)', path: (firstId) => `/events/${firstId}` },
    ];
    const picked = targets.filter((target) => !bench.only || bench.only.some((word) => target.title.toLowerCase().includes(word)));
    const large = bench.events.toLocaleString('en');
    const smallName = bench.compareEvents.toLocaleString('en');
    console.log(
      `\nScale: ${large} events (${bench.databaseUrl}) against ${smallName} (${bench.compareDatabaseUrl}), ${bench.seconds} s each`,
    );
    const rows = [
      `| request | ${smallName} events | ${large} events | p99 ${large} ÷ ${smallName} | req/s ${smallName} ÷ ${large} | goal |`,
      '|---|---|---|---|---|---|',
    ];
    const figure = (m: Latency) =>
      `${m.reqPerSec.toFixed(0)} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${m.failures ? `, ${m.failures} FAILED` : ''}`;
    for (const target of picked) {
      const run = async (product: Product, firstId: number) => {
        const url = product.origin + target.path(firstId);
        await bench.measure(url, product.cookie, undefined, 2);
        return bench.measure(url, product.cookie, undefined, bench.seconds);
      };
      const before = await run(little, smallEvents.firstId);
      const after = await run(big, largeEvents.firstId);
      const p99Ratio = after.p99 / Math.max(before.p99, 1);
      const rateRatio = before.reqPerSec / Math.max(after.reqPerSec, 1);
      const met = p99Ratio <= 1.5 && rateRatio <= 1.5 && before.failures + after.failures === 0;
      rows.push(
        `| ${target.title} | ${figure(before)} | ${figure(after)} | ${p99Ratio.toFixed(2)}× | ${rateRatio.toFixed(2)}× | ≤ 1.5×: ${met ? 'met' : 'NOT MET'} |`,
      );
      console.log(rows.at(-1), `(load ${bench.load()})`);
    }
    console.log(`\n${[...rows, ...sizes].join('\n')}\n\nload average at the end: ${bench.load()}`);
  } finally {
    await big.stop();
    await little.stop();
  }
}
