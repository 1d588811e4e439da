import { createRequire } from 'node:module';
import type { Knex } from 'knex';

/** The part of better-sqlite3 (the driver Knex uses for SQLite) the backup uses directly; it ships no types. */
interface SqliteStatement {
  columns(): Array<{ name: string }>;
  raw(toggle: boolean): SqliteStatement;
  pluck(toggle: boolean): SqliteStatement;
  iterate(...params: unknown[]): IterableIterator<unknown[]>;
  all(...params: unknown[]): unknown[];
}

export interface SqliteHandle {
  prepare(sql: string): SqliteStatement;
  backup(destination: string): Promise<{ totalPages: number; remainingPages: number }>;
  pragma(sql: string): unknown;
  close(): void;
}

type SqliteConstructor = new (filename: string, options?: { readonly?: boolean; fileMustExist?: boolean }) => SqliteHandle;

export function openSqlite(filename: string, options?: { readonly?: boolean; fileMustExist?: boolean }): SqliteHandle {
  const Database = createRequire(import.meta.url)('better-sqlite3') as SqliteConstructor;
  const handle = new Database(filename, options);
  handle.pragma('busy_timeout = 5000');
  return handle;
}

/** The file a SQLite database of ours lives in (never `:memory:`, which no other connection can read). */
export function sqliteFileOf(db: Knex): string {
  const filename = (db.client.config.connection as { filename?: string }).filename;
  if (!filename || filename === ':memory:') throw new Error('An in-memory database cannot be backed up or restored');
  return filename;
}

/** Quotes a table or column name for SQLite (names come from the database's own catalogue). */
export const quoteSqlite = (name: string) => `"${name.replace(/"/g, '""')}"`;
