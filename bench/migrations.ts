/**
 * `npm run bench:migrations`: how long each migration takes on a database of 100,000 events (issue 31 point 5:
 * "migrations that rewrite data say how long they take on 100k events"), and the derived-data rebuild that
 * `migrateToLatest` runs after the last one.
 *
 * 1. recreates the database named by DATABASE_URL (default `sqlite:bench/out/migrations.sqlite`; a MySQL/MariaDB URL
 *    such as mysql://root@127.0.0.1:3306/pacer_bench_migrations benchmarks that server) and applies the first
 *    migration only;
 * 2. inserts BENCH_EVENTS events (default 100,000) in multi-row INSERTs, as an install of that day held them: run and
 *    track types half as WordPress's labels ('Half Marathon'), half as slugs; every fourth one featured;
 * 3. applies every later migration one at a time, so each one that rewrites data (test/helpers/migration-history.ts)
 *    runs on the database as the migration before it left it, timing each, then times the derived-data rebuild;
 * 4. prints a table (the data-rewriting ones marked) and the load average, and drops the MariaDB database unless
 *    BENCH_KEEP=1.
 * docs/performance.md keeps the latest figures; docs/upgrading.md lists the data-rewriting migrations.
 */
import { loadavg } from 'node:os';
import { createDatabase, dialectOf } from '@db/knex.js';
import { refreshDerivedData } from '@services/records/derived.js';
import { migrateUpTo, migrationSteps } from '@test/helpers/migration-history.js';
import { recreateDatabase } from './harness.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const DATABASE_URL = process.env.DATABASE_URL ?? 'sqlite:bench/out/migrations.sqlite';
const SQLITE = dialectOf(DATABASE_URL) === 'sqlite';

const LABELS = [['Half Marathon', '10K'], ['Marathon'], ['5K', 'Fun Run'], ['Trail Running', 'Ultra']];
const SLUGS = [['half-marathon', '10k'], ['marathon'], ['5k', 'fun-run'], ['trail-running', 'ultra']];
const TRACKS = [['Road'], ['Trail', 'Road'], ['road'], ['trail']];
const STATES = ['NSW', 'VIC', 'QLD', 'WA', 'SA', 'TAS', 'ACT', 'NT'];

function eventRow(i: number): Record<string, unknown> {
  const stamp = `2026-0${(i % 9) + 1}-1${i % 10} 08:00:00.000`;
  const types = i % 2 ? LABELS : SLUGS;
  return {
    eventName: `Event ${i} ${STATES[i % STATES.length]} Coast Run`,
    wordpressEventId: i % 3 ? 100_000 + i : null,
    eventStartDate: `2027-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
    websiteUrl: `https://race${i}.example`,
    locationState: STATES[i % STATES.length],
    locationAddress: `${i} Finish Line Rd`,
    runType: JSON.stringify(types[i % types.length]),
    trackType: JSON.stringify(TRACKS[i % TRACKS.length]),
    featuredRace: i % 4 === 0 ? 1 : 0,
    totalAdvertisingSpend: `${i % 1000}.50`,
    notes: 'Imported from the old spreadsheet',
    createdAt: stamp,
    updatedAt: stamp,
  };
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

async function main(): Promise<void> {
  const steps = await migrationSteps();
  const dropDatabase = await recreateDatabase(DATABASE_URL);
  const db = createDatabase({ url: DATABASE_URL, acquireTimeoutMs: 60_000 });
  try {
    await migrateUpTo(db, steps[0]!.name);
    const started = performance.now();
    const batch = SQLITE ? 500 : 2000;
    for (let first = 0; first < EVENTS; first += batch) {
      const rows = Array.from({ length: Math.min(batch, EVENTS - first) }, (_, k) => eventRow(first + k));
      await db('events').insert(rows);
    }
    await db('users').insert({ email: 'ada@pacer.example', passwordHash: 'x', createdAt: '2026-01-01 00:00:00.000' });
    process.stdout.write(`${EVENTS} events inserted in ${seconds(performance.now() - started)} s\n`);

    const timings: Array<[name: string, ms: number]> = [];
    await migrateUpTo(db, steps.at(-1)!.name, (name, ms) => {
      timings.push([name, ms]);
      process.stdout.write('.');
    });
    const rebuildStarted = performance.now();
    await refreshDerivedData(db);
    const rebuild = performance.now() - rebuildStarted;

    const rewrites = new Set(steps.filter((step) => step.rewritesData).map((step) => step.name));
    const lines = [
      '',
      `Migrations on ${SQLITE ? 'SQLite' : 'MySQL/MariaDB'} with ${EVENTS.toLocaleString('en')} events (load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')})`,
      '| migration | rewrites data | seconds |',
      '|---|---|---|',
      ...timings.map(([name, ms]) => `| ${name} | ${rewrites.has(name) ? 'yes' : ''} | ${seconds(ms)} |`),
      `| derived-data rebuild (after the last migration) | yes | ${seconds(rebuild)} |`,
      `| all migrations + rebuild | | ${seconds(timings.reduce((sum, [, ms]) => sum + ms, 0) + rebuild)} |`,
    ];
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    await db.destroy();
    await dropDatabase();
  }
}

await main();
