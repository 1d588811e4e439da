import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { createConnection } from 'mysql2/promise';
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

/**
 * A fresh, migrated database of its own (a temp SQLite file, or a new MariaDB database), dropped afterwards.
 *
 * Migrating from nothing takes 2–4 s on MariaDB (twenty migrations, most of them DDL that copies a table), and a test
 * pass makes about 140 databases: so a migrated database is a copy of a template migrated once per content of
 * migrations/ (a file on SQLite, a database on MariaDB, both kept between runs), and is then migrated to the latest
 * like any database, which applies nothing new and refreshes derived data when its definition changed since.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  let database: TestDatabase;
  /** What remains to be done after the database exists: the MariaDB copy of the template, made into it. */
  let copyIntoIt = async () => {};
  if (testDialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'pacer-test-'));
    const filename = path.join(dir, 'test.sqlite');
    try {
      // Before anything opens the file.
      if (migrate) copyFileSync(await sqliteTemplate(), filename);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    const url = `sqlite:${filename}`;
    const db = createDatabase({ url });
    database = {
      url,
      db,
      dialect: 'sqlite',
      async destroy() {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } else {
    const name = `pacer_t_${process.pid}_${randomBytes(4).toString('hex')}`;
    await onDatabaseServer((admin) => admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [name]));
    const url = mysqlUrlOf(name);
    const db = createDatabase({ url, acquireTimeoutMs: 10_000, poolMax: 5 });
    database = {
      url,
      db,
      dialect: 'mysql',
      async destroy() {
        await db.destroy();
        await onDatabaseServer((admin) => admin.raw('DROP DATABASE IF EXISTS ??', [name]));
      },
    };
    copyIntoIt = async () => copyMysqlTemplate(await mysqlTemplate(), name);
  }
  if (!migrate) return database;
  try {
    await copyIntoIt();
    await migrateToLatest(database.db);
  } catch (error) {
    // No caller holds it yet to remove it: a database that failed to be made is not left behind.
    await database.destroy();
    throw error;
  }
  return database;
}

/** Runs `work` on a connection to the MySQL/MariaDB server with no database chosen, then closes it. */
async function onDatabaseServer<T>(work: (admin: Knex) => Promise<T>): Promise<T> {
  const admin = knexFactory({
    client: 'mysql2',
    connection: { ...mysqlConnection(testDatabaseServer), database: undefined },
    pool: { min: 1, max: 1 },
  });
  try {
    return await work(admin);
  } finally {
    await admin.destroy();
  }
}

function mysqlUrlOf(database: string): string {
  const base = new URL(testDatabaseServer.replace(/^mariadb:/, 'mysql:'));
  base.pathname = `/${database}`;
  return base.toString();
}

/** The migrations' own text: a template made from other migrations is another template. */
const MIGRATIONS_FINGERPRINT = (() => {
  const dir = path.join(import.meta.dirname, '..', '..', 'migrations');
  const hash = createHash('sha1');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(path.join(dir, file)));
  return hash.digest('hex').slice(0, 12);
})();

let sqliteTemplateFile: Promise<string> | undefined;

/** A migrated SQLite file; made under another name and renamed, so a process that finds it finds it whole. */
function sqliteTemplate(): Promise<string> {
  sqliteTemplateFile ??= (async () => {
    const file = path.join(tmpdir(), `pacer-test-template-${MIGRATIONS_FINGERPRINT}.sqlite`);
    if (existsSync(file)) return file;
    const building = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    const db = createDatabase({ url: `sqlite:${building}` });
    try {
      await migrateToLatest(db);
      // Closing the last connection checkpoints the write-ahead log into the file.
      await db.destroy();
      renameSync(building, file);
    } catch (error) {
      await db.destroy();
      for (const suffix of ['', '-wal', '-shm']) rmSync(building + suffix, { force: true });
      throw error;
    }
    return file;
  })();
  return sqliteTemplateFile;
}

interface MysqlTemplate {
  database: string;
  tables: Array<{ name: string; createStatement: string }>;
}

let mysqlTemplateTables: Promise<MysqlTemplate> | undefined;

/**
 * The migrated template database and its tables' CREATE statements. Built under a named lock, so of the test
 * processes starting at once one builds it and the others wait; a table in it marks it complete, so a build that
 * was killed halfway is dropped and made again.
 */
function mysqlTemplate(): Promise<MysqlTemplate> {
  mysqlTemplateTables ??= onDatabaseServer(async (admin) => {
    const database = `pacer_template_${MIGRATIONS_FINGERPRINT}`;
    // Held until released below, or until this connection closes if the build fails.
    await admin.raw('SELECT GET_LOCK(?, 300)', [database]);
    const [complete] = (await admin.raw('SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?', [
      database,
      TEMPLATE_COMPLETE,
    ])) as unknown as [unknown[]];
    if (complete.length === 0) {
      await admin.raw('DROP DATABASE IF EXISTS ??', [database]);
      await admin.raw('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [database]);
      const db = createDatabase({ url: mysqlUrlOf(database), acquireTimeoutMs: 10_000 });
      try {
        await migrateToLatest(db);
        await db.schema.createTable(TEMPLATE_COMPLETE, (table) => table.integer('id'));
      } finally {
        await db.destroy();
      }
    }
    await admin.raw('SELECT RELEASE_LOCK(?)', [database]);
    const [tableRows] = (await admin.raw(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' AND table_name <> ?",
      [database, TEMPLATE_COMPLETE],
    )) as unknown as [Array<{ name: string }>];
    const tables = [];
    for (const { name } of tableRows) {
      const [[shown]] = (await admin.raw('SHOW CREATE TABLE ??.??', [database, name])) as unknown as [[{ 'Create Table': string }]];
      tables.push({ name, createStatement: shown['Create Table'] });
    }
    return { database, tables };
  });
  return mysqlTemplateTables;
}

const TEMPLATE_COMPLETE = 'template_complete';

/**
 * Makes the template's tables in `database` and copies their rows (the migrations' own records and what they
 * seed), in one round trip; foreign keys are checked from the next statement on, as the rows are the template's.
 */
async function copyMysqlTemplate(template: MysqlTemplate, database: string) {
  const { host, port, user, password } = mysqlConnection(testDatabaseServer);
  const connection = await createConnection({ host, port, user, password, database, multipleStatements: true });
  try {
    const quote = (identifier: string) => `\`${identifier.replaceAll('`', '``')}\``;
    await connection.query(
      [
        'SET FOREIGN_KEY_CHECKS = 0',
        ...template.tables.map((table) => table.createStatement),
        ...template.tables.map(
          (table) => `INSERT INTO ${quote(table.name)} SELECT * FROM ${quote(template.database)}.${quote(table.name)}`,
        ),
        'SET FOREIGN_KEY_CHECKS = 1',
      ].join(';\n'),
    );
  } finally {
    await connection.end();
  }
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
