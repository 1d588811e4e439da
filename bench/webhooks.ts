/**
 * `npm run bench:webhooks`: record write throughput with one webhook endpoint configured, next to the same writes
 * with none, in the same run (issue 32: within 10 %). Each write is a service call as a request makes it (create a
 * brand, then update it), so the figure is the write path itself: the outbox rows in the write's transaction and,
 * in the same process, the embedded runner sending each delivery to a local receiver that answers 204.
 *
 * Rounds alternate without and with the endpoint (A B A B …) so a busy, shared machine shifts both alike; the
 * medians of each are compared.
 *
 *   DATABASE_URL   default a fresh SQLite file under the temp folder; mysql://…/pacer_bench_webhooks for MariaDB
 *                  (created if missing, its tables emptied)
 *   BENCH_SECONDS  seconds per round (default 3); BENCH_ROUNDS rounds of each (default 5)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { fork } from 'node:child_process';
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

/** `here`: this process sends the deliveries too (the embedded server); `elsewhere`: only the outbox is written. */
const SEND_HERE = (process.env.BENCH_DELIVERY ?? 'here') === 'here';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const scratch = mkdtempSync(path.join(tmpdir(), 'pacer-bench-webhooks-'));
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
  if (SEND_HERE) await startWebhookDelivery(ctx, 'server');
  const actor = cliActor();

  /** Writes per second for one round: a create and an update per loop, each its own transaction. */
  async function round(): Promise<number> {
    let writes = 0;
    const until = performance.now() + SECONDS * 1000;
    for (let i = 0; performance.now() < until; i++) {
      const brand = await createRecord(ctx, actor, 'brand', { brandName: `Bench Brand ${i}` });
      await updateRecord(ctx, actor, 'brand', String(brand.id), { brandName: `Bench Brand ${i} updated` });
      writes += 2;
      // As a server between requests: the event loop runs its I/O (the deliveries) between writes.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return writes / SECONDS;
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const without: number[] = [];
  const withOne: number[] = [];
  await round(); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    without.push(await round());
    const hook = await createWebhook(ctx, actor, { url, events: '*' });
    withOne.push(await round());
    await deleteWebhook(ctx, actor, hook.id);
  }
  await stopWebhookDelivery(ctx);
  const deliveries = await received();
  const a = median(without);
  const b = median(withOne);
  const ratio = b / a;
  process.stdout.write(
    `${dialectOf(DATABASE_URL) === 'mysql' ? 'MariaDB' : 'SQLite'}, ${ROUNDS} rounds of ${SECONDS} s each\n` +
      `  no endpoint:   ${a.toFixed(0)} writes/s (rounds: ${without.map((v) => v.toFixed(0)).join(', ')})\n` +
      `  one endpoint:  ${b.toFixed(0)} writes/s (rounds: ${withOne.map((v) => v.toFixed(0)).join(', ')}); ${deliveries} deliveries received\n` +
      `  ratio: ${(ratio * 100).toFixed(1)} % (goal: at least 90 %) ${ratio >= 0.9 ? 'OK' : 'BELOW GOAL'}\n`,
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
