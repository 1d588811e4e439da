import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { closeWhenIdle, createDatabase } from '../../src/db/knex.js';
import { drainAndClose } from '../../src/server/shutdown.js';

describe('graceful shutdown', () => {
  it('finishes in-flight requests, refuses new ones, then closes the pool', async () => {
    const app = express();
    app.get('/slow', (_req, res) => {
      setTimeout(() => res.json({ done: true }), 300);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const events: string[] = [];

    const inFlight = Promise.all(Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${port}/slow`).then((r) => r.json())));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const closed = drainAndClose(server, pino({ level: 'silent' }), async () => {
      events.push('pool closed');
    });
    await expect(fetch(`http://127.0.0.1:${port}/slow`)).rejects.toThrow();
    const answers = await inFlight;
    expect(answers).toEqual(Array.from({ length: 20 }, () => ({ done: true })));
    await expect(closed).resolves.toBe(true);
    expect(events).toEqual(['pool closed']);
  });

  it('at the deadline cuts the requests still running and cleans up once', async () => {
    const app = express();
    app.get('/stuck', () => {});
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    const stuck = fetch(`http://127.0.0.1:${port}/stuck`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    let cleanups = 0;
    await expect(drainAndClose(server, pino({ level: 'silent' }), async () => void cleanups++, 100)).resolves.toBe(false);
    expect(await stuck).toBeInstanceOf(Error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cleanups).toBe(1);
  });

  it('closes the database pool only once running work has released its connection', async () => {
    const db = createDatabase({ url: 'sqlite::memory:' });
    await db.schema.createTable('notes', (table) => table.string('text'));
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const transaction = db.transaction(async (trx) => {
      await trx('notes').insert({ text: 'written while shutting down' });
      await committed;
      await trx('notes').insert({ text: 'and finished' });
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    let closed = false;
    const closing = closeWhenIdle(db, 5_000).then((idle) => {
      closed = true;
      return idle;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(closed).toBe(false);
    commit();
    await transaction;
    await expect(closing).resolves.toBe(true);
    await expect(db('notes').count()).rejects.toThrow();
  });

  it('closes the pool anyway at the deadline, and says so', async () => {
    const db = createDatabase({ url: 'sqlite::memory:' });
    const held = db.transaction(() => new Promise<void>(() => {}));
    void held.catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = Date.now();
    await expect(closeWhenIdle(db, 200)).resolves.toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('exits 0 on SIGTERM as a real process', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-shutdown-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: { ...process.env, NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, SESSION_SECRET: 's'.repeat(40), BCRYPT_COST: '4', LOG_LEVEL: 'info' },
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
