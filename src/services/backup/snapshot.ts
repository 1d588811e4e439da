import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { Knex } from 'knex';
import { dialectOfDb, type Dialect } from '@db/knex.js';
import { isBackedUpTable, keysInDeletedSnapshot, tablePart, toNeutral } from './format.js';
import { openSqlite, quoteSqlite, sqliteFileOf } from './sqlite.js';

/** A table written out: the temporary file holding its part, with the part's checksum and size. */
interface DumpedTable {
  table: string;
  part: string;
  file: string;
  rows: number;
  sha256: string;
  bytes: number;
}

export interface Snapshot {
  dbKind: Dialect;
  migrations: string[];
  tables: DumpedTable[];
  /** The stored files the snapshot's rows name, in a stable order. */
  fileKeys: string[];
}

/** Told as the work goes on; the snapshot waits for a promise it returns (a test writes in the middle of it). */
export type SnapshotProgress = (progress: { phase: string; done: number; total: number }) => void | Promise<void>;

/** Writes one table's part to a temporary file as rows arrive, waiting for the disk (memory stays flat). */
class TableWriter {
  private readonly out: WriteStream;
  private readonly hash = createHash('sha256');
  private bytes = 0;
  rows = 0;

  constructor(
    readonly table: string,
    readonly file: string,
    columns: string[],
  ) {
    this.out = createWriteStream(file);
    this.line(JSON.stringify({ table, columns }));
  }

  private line(text: string): boolean {
    const bytes = Buffer.from(`${text}\n`);
    this.hash.update(bytes);
    this.bytes += bytes.length;
    return this.out.write(bytes);
  }

  async row(values: unknown[]): Promise<void> {
    this.rows++;
    if (!this.line(JSON.stringify(values.map(toNeutral)))) await once(this.out, 'drain');
  }

  async finish(): Promise<DumpedTable> {
    this.out.end();
    await once(this.out, 'finish');
    return {
      table: this.table,
      part: tablePart(this.table),
      file: this.file,
      rows: this.rows,
      sha256: this.hash.digest('hex'),
      bytes: this.bytes,
    };
  }
}

/** Collects the stored keys the files table and Recently deleted name, as their rows go by. */
class FileKeyCollector {
  private readonly keys = new Set<string>();

  watch(table: string, columns: string[]): ((values: unknown[]) => void) | null {
    if (table === 'files') {
      const at = columns.indexOf('filePath');
      return at < 0 ? null : (values) => void (values[at] ? this.keys.add(String(values[at])) : undefined);
    }
    if (table === 'deleted_items') {
      const at = columns.indexOf('snapshot');
      return at < 0 ? null : (values) => keysInDeletedSnapshot(values[at]).forEach((key) => this.keys.add(key));
    }
    return null;
  }

  list(): string[] {
    return [...this.keys].sort();
  }
}

/**
 * SQLite: the online backup API copies the live file to a temporary one (consistent however the app writes
 * meanwhile: a page changed during the copy makes it start again), then the rows are read from that copy.
 */
async function sqliteSnapshot(db: Knex, workDir: string, onProgress?: SnapshotProgress): Promise<Snapshot> {
  const copy = path.join(workDir, 'snapshot.sqlite');
  const live = openSqlite(sqliteFileOf(db), { readonly: true, fileMustExist: true });
  try {
    await live.backup(copy);
  } finally {
    live.close();
  }
  const snapshot = openSqlite(copy, { readonly: true });
  try {
    const names = snapshot.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck(true).all() as string[];
    const migrations = names.includes('knex_migrations')
      ? (snapshot.prepare('SELECT name FROM knex_migrations ORDER BY id').pluck(true).all() as string[])
      : [];
    const tables = names.filter(isBackedUpTable);
    const collector = new FileKeyCollector();
    const dumped: DumpedTable[] = [];
    for (const [index, table] of tables.entries()) {
      await onProgress?.({ phase: 'Reading the database', done: index, total: tables.length });
      const statement = snapshot.prepare(`SELECT * FROM ${quoteSqlite(table)}`).raw(true);
      const columns = statement.columns().map((column) => column.name);
      const writer = new TableWriter(table, path.join(workDir, `${table}.ndjson`), columns);
      const watch = collector.watch(table, columns);
      for (const values of statement.iterate()) {
        watch?.(values);
        await writer.row(values);
      }
      dumped.push(await writer.finish());
    }
    await onProgress?.({ phase: 'Reading the database', done: tables.length, total: tables.length });
    return { dbKind: 'sqlite', migrations, tables: dumped, fileKeys: collector.list() };
  } finally {
    snapshot.close();
  }
}

/** The callback API of a mysql2 connection, as far as used here. */
interface MysqlConnection {
  query(sql: string, values: unknown[], callback: (error: Error | null, rows: unknown) => void): void;
  query(options: { sql: string; values: unknown[]; rowsAsArray: boolean }): {
    stream(options: { highWaterMark: number }): AsyncIterable<unknown[]>;
    on(event: 'fields', listener: (fields: Array<{ name: string }>) => void): void;
  };
}

function ask(connection: MysqlConnection, sql: string, values: unknown[] = []): Promise<unknown> {
  return new Promise((resolve, reject) => connection.query(sql, values, (error, rows) => (error ? reject(error) : resolve(rows))));
}

/**
 * MySQL/MariaDB: one connection, one REPEATABLE READ transaction started WITH CONSISTENT SNAPSHOT, every table
 * streamed out of that one snapshot (InnoDB serves it without blocking writers).
 */
async function mysqlSnapshot(db: Knex, workDir: string, onProgress?: SnapshotProgress): Promise<Snapshot> {
  const connection = (await db.client.acquireConnection()) as MysqlConnection;
  try {
    await ask(connection, 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    await ask(connection, 'START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    try {
      const names = (
        (await ask(
          connection,
          "SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME",
        )) as Array<{ name: string }>
      ).map((row) => row.name);
      const migrations = names.includes('knex_migrations')
        ? ((await ask(connection, 'SELECT name FROM knex_migrations ORDER BY id')) as Array<{ name: string }>).map((row) => row.name)
        : [];
      const tables = names.filter(isBackedUpTable);
      const collector = new FileKeyCollector();
      const dumped: DumpedTable[] = [];
      for (const [index, table] of tables.entries()) {
        await onProgress?.({ phase: 'Reading the database', done: index, total: tables.length });
        const columns = (
          (await ask(
            connection,
            'SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
            [table],
          )) as Array<{ name: string }>
        ).map((row) => row.name);
        const writer = new TableWriter(table, path.join(workDir, `${table}.ndjson`), columns);
        const watch = collector.watch(table, columns);
        const query = connection.query({ sql: 'SELECT ?? FROM ??', values: [columns, table], rowsAsArray: true });
        for await (const values of query.stream({ highWaterMark: 200 })) {
          watch?.(values);
          await writer.row(values);
        }
        dumped.push(await writer.finish());
      }
      await onProgress?.({ phase: 'Reading the database', done: tables.length, total: tables.length });
      return { dbKind: 'mysql', migrations, tables: dumped, fileKeys: collector.list() };
    } finally {
      await ask(connection, 'COMMIT');
    }
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/** A consistent snapshot of the database written as the archive's table parts into `workDir`. */
export function takeSnapshot(db: Knex, workDir: string, onProgress?: SnapshotProgress): Promise<Snapshot> {
  return dialectOfDb(db) === 'sqlite' ? sqliteSnapshot(db, workDir, onProgress) : mysqlSnapshot(db, workDir, onProgress);
}
