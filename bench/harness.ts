/**
 * What the benchmarks that run `pacer` share (bench/import.ts, bench/general-import.ts): the built CLI run as `pacer`
 * runs it with its peak resident memory polled, the benchmark database recreated, and the "raw INSERT" yardstick:
 * the rows an import wrote, inserted again into empty copies of their tables in one transaction, in the same run.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import path from 'node:path';
import { createConnection, type Connection } from 'mysql2/promise';
import { dialectOf, mysqlConnection } from '@db/knex.js';
import { CONTACT_INDEX } from '@services/records/definitions.js';
import { PostingCollector } from '@services/records/postings.js';
import { gramsOf, searchDocument } from '@services/records/search-text.js';
import { pacerNodeOptions } from '../scripts/pacer-node-options.mjs';

export const cli = path.resolve('dist/cli.js');
const pacer = path.resolve('bin/pacer.js');
const PACER_NODE_OPTIONS = pacerNodeOptions();

export type Row = Record<string, unknown>;

/** The part of better-sqlite3's API used here (the package ships no types). */
interface SqliteHandle {
  pragma(sql: string): unknown;
  exec(sql: string): void;
  prepare(sql: string): { all(...params: unknown[]): unknown[]; run(params: unknown[]): unknown };
  transaction(work: () => void): () => void;
  close(): void;
}
const SqliteDatabase = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => SqliteHandle;

/**
 * The same few operations on either database, for the raw baselines: read rows, make an empty copy of a table (same
 * columns and indexes), and insert rows into it in one transaction, timed.
 */
export interface RawDatabase {
  select(sql: string): Promise<Row[]>;
  emptyCopy(table: string): Promise<string>;
  /** Inserts every row of each table in one transaction; answers the seconds it took. */
  insertTimed(parts: ReadonlyArray<{ table: string; columns: readonly string[]; rows: () => Iterable<unknown[]> }>): Promise<number>;
  close(): Promise<void>;
}

export const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

function* inGroups<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let group: T[] = [];
  for (const item of items) {
    group.push(item);
    if (group.length === size) {
      yield group;
      group = [];
    }
  }
  if (group.length) yield group;
}

async function mysqlRaw(url: string): Promise<RawDatabase> {
  const { host, port, user, password, database, charset } = mysqlConnection(url);
  const conn: Connection = await createConnection({ host, port, user, password, database, charset, dateStrings: true, timezone: 'Z' });
  return {
    async select(sql) {
      const [rows] = await conn.query(sql);
      return rows as Row[];
    },
    async emptyCopy(table) {
      const copy = `${table}_raw`;
      await conn.query('DROP TABLE IF EXISTS ??', [copy]);
      await conn.query('CREATE TABLE ?? LIKE ??', [copy, table]);
      return copy;
    },
    async insertTimed(parts) {
      const started = process.hrtime.bigint();
      await conn.beginTransaction();
      for (const { table, columns, rows } of parts) {
        for (const group of inGroups(rows(), 1000)) await conn.query('INSERT INTO ?? (??) VALUES ?', [table, columns, group]);
      }
      await conn.commit();
      return seconds(started);
    },
    close: () => conn.end(),
  };
}

function sqliteRaw(url: string): RawDatabase {
  const db = new SqliteDatabase(path.resolve(url.slice('sqlite:'.length)));
  db.pragma('journal_mode = WAL');
  return {
    select: (sql) => Promise.resolve(db.prepare(sql).all() as Row[]),
    emptyCopy(table) {
      const copy = `${table}_raw`;
      db.exec(`DROP TABLE IF EXISTS "${copy}"`);
      const schema = db
        .prepare('SELECT type, name, sql FROM sqlite_master WHERE tbl_name = ? AND sql IS NOT NULL ORDER BY type DESC')
        .all(table) as Row[];
      for (const item of schema) {
        const sql = String(item.sql);
        // The table's own definition, then each index on it, renamed onto the copy.
        if (item.type === 'table') db.exec(sql.replace(/^CREATE TABLE\s+[`"]?\w+[`"]?/i, `CREATE TABLE "${copy}"`));
        else
          db.exec(
            sql
              .replace(
                /^CREATE (UNIQUE )?INDEX\s+[`"]?(\w+)[`"]?/i,
                (_m, unique: string | undefined, name: string) => `CREATE ${unique ?? ''}INDEX "${name}_raw"`,
              )
              .replace(/ ON [`"]?\w+[`"]?/i, ` ON "${copy}"`),
          );
      }
      return Promise.resolve(copy);
    },
    insertTimed(parts) {
      const started = process.hrtime.bigint();
      db.transaction(() => {
        for (const { table, columns, rows } of parts) {
          const insert = db.prepare(
            `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          );
          for (const row of rows()) insert.run(row);
        }
      })();
      return Promise.resolve(seconds(started));
    },
    close() {
      db.close();
      return Promise.resolve();
    },
  };
}

/** The raw baselines' connection to the benchmark database (a mysql:// or a sqlite: URL). */
export const openRaw = (url: string): Promise<RawDatabase> =>
  dialectOf(url) === 'sqlite' ? Promise.resolve(sqliteRaw(url)) : mysqlRaw(url);

/** The load average, for figures printed with it (the machine's speed varies with it). */
export const loadText = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

export const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export interface RunResult {
  seconds: number;
  peakRssMb: number;
  code: number;
  stdout: string;
  stderr: string;
}

export function peakRssKb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

export function runCli(databaseUrl: string, args: string[], nodeOptions: string[] = []): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [...PACER_NODE_OPTIONS, ...nodeOptions, pacer, ...args], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        NODE_ENV: 'production',
        SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let peak = 0;
    const poll = setInterval(() => {
      const kb = child.pid ? peakRssKb(child.pid) : null;
      if (kb !== null) peak = Math.max(peak, kb);
    }, 20);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(poll);
      resolve({ seconds: seconds(started), peakRssMb: peak / 1024, code: code ?? -1, stdout, stderr });
    });
  });
}

/** Drops and recreates the benchmark's database (a MariaDB database, or the SQLite file and its journals). */
export async function recreateDatabase(url: string): Promise<() => Promise<void>> {
  if (dialectOf(url) === 'sqlite') {
    const file = path.resolve(url.slice('sqlite:'.length));
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    return () => Promise.resolve();
  }
  const { host, port, user, password, database } = mysqlConnection(url);
  if (!database) throw new Error('DATABASE_URL must name the benchmark database');
  const admin = await createConnection({ host, port, user, password });
  await admin.query('DROP DATABASE IF EXISTS ??', [database]);
  await admin.query('CREATE DATABASE ?? CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci', [database]);
  return async () => {
    if (!process.env.BENCH_KEEP) await admin.query('DROP DATABASE IF EXISTS ??', [database]);
    await admin.end();
  };
}

export const withoutId = (rows: Row[]) => {
  const columns = Object.keys(rows[0] ?? {}).filter((column) => column !== 'id');
  // A JSON column comes back parsed from mysql2: it goes in again as its text.
  const stored = (value: unknown) => (value !== null && typeof value === 'object' ? JSON.stringify(value) : value);
  return { columns, values: () => rows.map((row) => columns.map((column) => stored(row[column]))) };
};

/** Contacts' search documents and trigram postings, made by the index's own rules, for the "raw + index" baseline. */
function indexRowsOf(contacts: Row[]) {
  const docs = contacts.map((row) => [CONTACT_INDEX.code, Number(row.id), searchDocument(CONTACT_INDEX.searchFields(row)), '']);
  return {
    docs: () => docs,
    // Packed as the index packs them, by the index's own collector (which takes ids in ascending order).
    grams: () => {
      const postings = new PostingCollector();
      for (const [, id, text] of [...docs].sort((a, b) => Number(a[1]) - Number(b[1]))) postings.add(Number(id), gramsOf(String(text)));
      return postings.sorted().rows(CONTACT_INDEX.code);
    },
  };
}

export interface Baseline {
  raw: number;
  withIndex: number;
}

/** Inserts the given rows again, raw, into empty copies: once alone, once with the contacts' index rows. */
export async function baselineFor(
  raw: RawDatabase,
  tables: Array<{ table: string; rows: Row[] }>,
  contacts: Row[],
  /** What the rates count: the rows of the file imported. */
  fileRows: number,
): Promise<Baseline> {
  const parts = async () =>
    Promise.all(
      tables.map(async ({ table, rows }) => {
        const { columns, values } = withoutId(rows);
        return { table: await raw.emptyCopy(table), columns, rows: values };
      }),
    );
  const rawSeconds = await raw.insertTimed(await parts());
  const index = indexRowsOf(contacts);
  const withIndexSeconds = await raw.insertTimed([
    ...(await parts()),
    { table: await raw.emptyCopy('record_search_docs'), columns: ['kind', 'recordId', 'text', 'buckets'], rows: index.docs },
    { table: await raw.emptyCopy('record_search_grams'), columns: ['kind', 'gram', 'block', 'ids'], rows: index.grams },
  ]);
  return { raw: fileRows / rawSeconds, withIndex: fileRows / withIndexSeconds };
}
