/**
 * `npm run bench:webhooks`: record write throughput with one webhook endpoint configured, next to the same writes
 * with none, in the same run (issue 32: within 10 %). Each write is a service call as a request makes it (create a
 * brand, then update it), so the figure is the write path itself: the outbox rows in the write's transaction and,
 * in the same process, the embedded runner sending each delivery to a local receiver that answers 204.
 *
 * Rounds alternate without and with the endpoint (A B, B A, …) so a busy, shared machine shifts both alike; the
 * ratio is the median of each pair's ratio.
 *
 *   DATABASE_URL   default a fresh SQLite file under the temp folder; mysql://…/pacer_bench_webhooks for MariaDB
 *                  (dropped and created again)
 *   BENCH_SECONDS  seconds per round (default 3); BENCH_ROUNDS rounds of each (default 5)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { fork, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConnection } from 'mysql2/promise';
import pino from 'pino';
import { loadConfig } from '@config/env.js';
import { createAppContext } from '@context/app-context.js';
import { dialectOf, mysqlConnection } from '@db/knex.js';
import { cliActor } from '@services/context.js';
import { createRecord, updateRecord } from '@services/records/service.js';
import { migrateToLatest } from '@services/schema.js';
import { startWebhookDelivery, stopWebhookDelivery } from '@services/webhooks/runner.js';
import { createWebhook, deleteWebhook } from '@services/webhooks/service.js';

/**
 * BENCH_DELIVERY: `here` (default), this process sends the deliveries too, as the server does without Redis;
 * `worker`, production with REDIS_URL (default redis://127.0.0.1:6379): this process queues each delivery in BullMQ
 * and a `pacer worker` process sends it; `elsewhere`, only the outbox is written (nothing is sent).
 */
const DELIVERY = process.env.BENCH_DELIVERY ?? 'here';
const REDIS_URL = DELIVERY === 'worker' ? (process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') : undefined;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const scratch = mkdtempSync(path.join(tmpdir(), 'pacer-bench-webhooks-'));
const SENT_BY: Record<string, string> = { here: 'in this process', worker: 'by pacer worker (Redis)', elsewhere: 'nowhere (outbox only)' };
const queuePrefix = `pacer-bench-${process.pid}`;
const DATABASE_URL = process.env.DATABASE_URL ?? `sqlite:${path.join(scratch, 'bench.sqlite')}`;

async function main() {
  if (dialectOf(DATABASE_URL) === 'mysql') {
    const { host, port, user, password, database } = mysqlConnection(DATABASE_URL);
    const admin = await createConnection({ host, port, user, password });
    await admin.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await admin.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4`);
    await admin.end();
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    LOG_LEVEL: 'warn',
    ...(REDIS_URL ? { REDIS_URL, QUEUE_PREFIX: queuePrefix } : {}),
  });
  const ctx = await createAppContext(config, { log: pino({ level: 'warn' }) });
  await migrateToLatest(ctx.db, { log: ctx.log });
  // The receiver is another system: its own process, so its work is not counted as ours.
  const receiver = fork(new URL('./webhook-receiver.mjs', import.meta.url), { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => receiver.once('message', (message) => resolve(Number(message))));
  const url = `http://127.0.0.1:${port}/hook`;
  const received = () =>
    new Promise<number>((resolve) => {
      receiver.once('message', (message) => resolve(Number(message)));
      receiver.send('count');
    });
  if (DELIVERY !== 'elsewhere') await startWebhookDelivery(ctx, 'server');
  const worker =
    DELIVERY === 'worker'
      ? spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../cli/index.ts', import.meta.url)), 'worker'], {
          env: { ...process.env, DATABASE_URL, REDIS_URL, QUEUE_PREFIX: queuePrefix, WEBHOOKS_ALLOW_PRIVATE: 'true', LOG_LEVEL: 'warn' },
          stdio: ['ignore', 'ignore', 'inherit'],
        })
      : null;
  const actor = cliActor();

  /** Writes per second for one round: a create and an update per loop, each its own transaction. */
  async function round(cpu?: number[]): Promise<number> {
    let writes = 0;
    const cpuBefore = process.cpuUsage();
    const until = performance.now() + SECONDS * 1000;
    for (let i = 0; performance.now() < until; i++) {
      const brand = await createRecord(ctx, actor, 'brand', { brandName: `Bench Brand ${i}` });
      await updateRecord(ctx, actor, 'brand', String(brand.id), { brandName: `Bench Brand ${i} updated` });
      writes += 2;
      // As a server between requests: the event loop runs its I/O (the deliveries) between writes.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const used = process.cpuUsage(cpuBefore);
    cpu?.push((used.user + used.system) / 1000 / writes);
    return writes / SECONDS;
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const without: number[] = [];
  const withOne: number[] = [];
  // This process's CPU per write (ms): unlike writes/s, it hardly moves with the machine's load.
  const cpuWithout: number[] = [];
  const cpuWithOne: number[] = [];
  await round(); // warm-up
  const measureWith = async () => {
    const hook = await createWebhook(ctx, actor, { url, events: '*' });
    withOne.push(await round(cpuWithOne));
    await deleteWebhook(ctx, actor, hook.id);
  };
  // A B, B A, A B…: a machine getting busier or quieter during the run weighs on both alike.
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      without.push(await round(cpuWithout));
      await measureWith();
    } else {
      await measureWith();
      without.push(await round(cpuWithout));
    }
  }
  await stopWebhookDelivery(ctx);
  if (worker) {
    // Let the worker catch up, then stop it as a deploy would.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    worker.kill('SIGTERM');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
  const deliveries = await received();
  const a = median(without);
  const b = median(withOne);
  // Each round's pair compared, then the median of those ratios: the machine's drift cancels within a pair.
  const ratio = median(withOne.map((value, index) => value / without[index]!));
  process.stdout.write(
    `${dialectOf(DATABASE_URL) === 'mysql' ? 'MariaDB' : 'SQLite'}, deliveries sent ${SENT_BY[DELIVERY] ?? DELIVERY}, ` +
      `${ROUNDS} rounds of ${SECONDS} s each\n` +
      `  no endpoint:   ${a.toFixed(0)} writes/s (rounds: ${without.map((v) => v.toFixed(0)).join(', ')})\n` +
      `  one endpoint:  ${b.toFixed(0)} writes/s (rounds: ${withOne.map((v) => v.toFixed(0)).join(', ')}); ${deliveries} deliveries received\n` +
      `  ratio: ${(ratio * 100).toFixed(1)} % (goal: at least 90 %) ${ratio >= 0.9 ? 'OK' : 'BELOW GOAL'}\n` +
      `  CPU of this process per write: ${median(cpuWithout).toFixed(2)} ms without, ${median(cpuWithOne).toFixed(2)} ms with ` +
      `(${((median(cpuWithout) / median(cpuWithOne)) * 100).toFixed(1)} %)\n`,
  );
  receiver.kill();
  await ctx.db.destroy();
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(scratch, { recursive: true, force: true }));
