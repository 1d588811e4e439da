import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { closeWhenIdle, createDatabase } from '@db/knex.js';
import { drainAndClose } from '@server/shutdown.js';
import { gate, waitUntil } from '../helpers/wait.js';

/** The knex pool's counters that closeWhenIdle looks at. */
const poolOf = (db: ReturnType<typeof createDatabase>) => (db.client as { pool: { numUsed(): number } }).pool;

describe('graceful shutdown', () => {
  it('finishes in-flight requests, refuses new ones, then closes the pool', async () => {
    const app = express();
    const answer = gate();
    let arrived = 0;
    app.get('/slow', (_req, res) => {
      arrived++;
      void answer.promise.then(() => res.json({ done: true }));
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const events: string[] = [];

    const inFlight = Promise.all(Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.json())));
    await waitUntil(() => arrived === 20, 'all 20 requests to be in flight');
    const closed = drainAndClose(server, pino({ level: 'silent' }), async () => {
      events.push('pool closed');
    });
    await expect(fetch(`http://127.0.0.1:${port}/slow`)).rejects.toThrow();
    expect(events).toEqual([]);
    // Only now, with the server closing, do the in-flight requests get their answers.
    answer.release();
    const answers = await inFlight;
    expect(answers).toEqual(Array.from({ length: 20 }, () => ({ done: true })));
    await expect(closed).resolves.toBe(true);
    expect(events).toEqual(['pool closed']);
  });

  it('at the deadline cuts the requests still running and cleans up once', async () => {
    const app = express();
    let arrived = 0;
    app.get('/stuck', () => void arrived++);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const stuck = fetch(`http://127.0.0.1:${port}/stuck`).catch((error: unknown) => error);
    await waitUntil(() => arrived === 1, 'the request to be in flight');
    let cleanups = 0;
    const draining = drainAndClose(server, pino({ level: 'silent' }), async () => void cleanups++, 100);
    // Listening after drainAndClose's own close callback, so once this fires that callback has had its say too.
    const serverClosed = once(server, 'close');
    await expect(draining).resolves.toBe(false);
    expect(await stuck).toBeInstanceOf(Error);
    await serverClosed;
    expect(cleanups).toBe(1);
  });

  it('closes the database pool only once running work has released its connection', async () => {
    const db = createDatabase({ url: 'sqlite::memory:' });
    await db.schema.createTable('notes', (table) => table.string('text'));
    const committed = gate();
    let writing = false;
    const transaction = db.transaction(async (trx) => {
      await trx('notes').insert({ text: 'written while shutting down' });
      writing = true;
      await committed.promise;
      await trx('notes').insert({ text: 'and finished' });
    });
    await waitUntil(() => writing, 'the transaction to hold a connection');
    const looks = vi.spyOn(poolOf(db), 'numUsed');
    const destroy = vi.spyOn(db, 'destroy');
    let closed = false;
    const closing = closeWhenIdle(db, 60_000).then((idle) => {
      closed = true;
      return idle;
    });
    // Seeing the connection still in use several times over, it keeps waiting and leaves the pool open.
    await waitUntil(() => looks.mock.calls.length >= 5, 'closeWhenIdle to look at the busy pool five times');
    expect(closed).toBe(false);
    expect(destroy).not.toHaveBeenCalled();
    committed.release();
    await transaction;
    await expect(closing).resolves.toBe(true);
    await expect(db('notes').count()).rejects.toThrow();
  });

  it('closes the pool anyway at the deadline, and says so', async () => {
    const db = createDatabase({ url: 'sqlite::memory:' });
    const held = db.transaction(() => new Promise<void>(() => {}));
    void held.catch(() => {});
    await waitUntil(() => poolOf(db).numUsed() > 0, 'the transaction to hold a connection');
    const looks = vi.spyOn(poolOf(db), 'numUsed');
    // The deadline is read from the clock: with the clock stopped it must keep waiting, however long that takes.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      let settled = false;
      const closing = closeWhenIdle(db, 200).finally(() => (settled = true));
      await waitUntil(() => looks.mock.calls.length >= 5, 'closeWhenIdle to look at the busy pool five times');
      expect(settled).toBe(false);
      // Just short of the deadline it still waits; at the deadline it gives up.
      vi.setSystemTime(Date.now() + 199);
      const seen = looks.mock.calls.length;
      await waitUntil(() => looks.mock.calls.length >= seen + 5, 'closeWhenIdle to look five more times');
      expect(settled).toBe(false);
      vi.setSystemTime(Date.now() + 1);
      await expect(closing).resolves.toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('exits 0 on SIGTERM as a real process', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-shutdown-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: {
          ...process.env,
          NODE_ENV: 'test',
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`,
          SESSION_SECRET: 's'.repeat(40),
          BCRYPT_COST: '4',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
        child.stdout.on('data', () => {
          if (output.includes('listening')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      await expect(exit).resolves.toBe(0);
      expect(output).toContain('"msg":"stopped"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
