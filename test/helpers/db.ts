import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { createDatabase, dialectOf, dialectOfDb, mysqlConnection, type Dialect } from '@db/knex.js';
import { migrateToLatest } from '@services/schema.js';

/** The database every data-layer test runs on: SQLite unless TEST_DATABASE_URL names a MySQL/MariaDB server. */
export const testDatabaseServer = process.env.TEST_DATABASE_URL ?? 'sqlite';
export const testDialect: Dialect = testDatabaseServer === 'sqlite' ? 'sqlite' : dialectOf(testDatabaseServer);

export interface TestDatabase {
  url: string;
  db: Knex;
  dialect: Dialect;
  destroy(): Promise<void>;
}

/** A fresh, migrated database of its own (a temp SQLite file, or a new MariaDB database), dropped afterwards. */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (testDialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-test-'));
    const url = `sqlite:${path.join(dir, 'test.sqlite')}`;
    const db = createDatabase({ url });
    if (migrate) await migrateToLatest(db);
    return {
      url,
      db,
      dialect: 'sqlite',
      async destroy() {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `pacer_t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'mysql2', connection: { ...mysqlConnection(testDatabaseServer), database: undefined } });
  await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]);
  await admin.destroy();
  const base = new URL(testDatabaseServer.replace(/^mariadb:/, 'mysql:'));
  base.pathname = `/${name}`;
  const url = base.toString();
  const db = createDatabase({ url, acquireTimeoutMs: 10_000, poolMax: 5 });
  if (migrate) await migrateToLatest(db);
  return {
    url,
    db,
    dialect: 'mysql',
    async destroy() {
      await db.destroy();
      const cleanup = knexFactory({ client: 'mysql2', connection: { ...mysqlConnection(testDatabaseServer), database: undefined } });
      await cleanup.raw('DROP DATABASE IF EXISTS ??', [name]);
      await cleanup.destroy();
    },
  };
}

/** A statement as Knex sent it. */
export interface SentStatement {
  sql: string;
  bindings: readonly unknown[];
}

/** Runs `work` and answers every statement it sent to `db`, in order. */
export async function statementsSentBy(db: Knex, work: () => Promise<void>): Promise<SentStatement[]> {
  const statements: SentStatement[] = [];
  const capture = (query: { sql: string; bindings?: readonly unknown[] }) =>
    void statements.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.on('query', capture);
  try {
    await work();
  } finally {
    db.removeListener('query', capture);
  }
  return statements;
}

/**
 * A statement's plan as this dialect's EXPLAIN gives it, a line a step: on MySQL/MariaDB `table type=… key=… rows=…
 * extra=…`, on SQLite the EXPLAIN QUERY PLAN detail (SCAN, SEARCH, USE TEMP B-TREE…).
 */
export async function explainPlan(db: Knex, { sql, bindings }: SentStatement): Promise<string[]> {
  if (dialectOfDb(db) === 'mysql') {
    const [rows] = (await db.raw(['EXPLAIN', sql].join(' '), bindings as Knex.RawBinding[])) as unknown as [Array<Record<string, unknown>>];
    return rows.map(
      (row) => `${String(row.table)} type=${String(row.type)} key=${String(row.key)} rows=${String(row.rows)} extra=${String(row.Extra)}`,
    );
  }
  const rows = (await db.raw(['EXPLAIN QUERY PLAN', sql].join(' '), bindings as Knex.RawBinding[])) as Array<{ detail: string }>;
  return rows.map((row) => row.detail);
}
