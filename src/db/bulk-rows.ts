import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { dialectOfDb } from './knex.js';
import { isTransaction } from './transaction.js';

/**
 * Many rows into one table, the fastest way each database takes them, on the transaction's own connection when given
 * one (so the rows commit or roll back with it): a prepared multi-row INSERT reused per connection on SQLite; LOAD
 * DATA LOCAL INFILE on MariaDB/MySQL when the server allows it and there are enough rows to pay for it; otherwise
 * multi-row INSERTs. The search index (src/services/records/derived.ts), the imports' contacts and history entries
 * write through here. Values are given as stored: text, integers, bytes or null.
 */

type Db = Knex | Knex.Transaction;
export type BulkValue = string | number | Buffer | null;
export type BulkRow = ReadonlyArray<BulkValue>;

export interface BulkOptions {
  /** Told how many rows are written so far, now and then (a rebuild's progress). */
  written?: (done: number) => void;
  /**
   * How many rows there are, when the caller knows (about) it: fewer than BULK_ROWS, an ordinary edit's, go as
   * INSERTs rather than pay LOAD DATA's set-up. Unknown: as many as a rebuild writes.
   */
  count?: number;
}

/** From this many rows, LOAD DATA (where the server takes it) pays for its set-up. */
export const BULK_ROWS = 2_000;

/**
 * Inserts every row into `table` (columns in the order of each row). Fails, leaving the transaction to roll back, if
 * the database would have kept fewer rows or changed a value: LOAD DATA LOCAL turns errors into warnings and skips
 * duplicate keys, so both are checked after it.
 */
export async function insertRowsInBulk(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: Iterable<BulkRow>,
  options: BulkOptions = {},
): Promise<void> {
  if (dialectOfDb(db as Knex) === 'sqlite') return preparedRows(db, table, columns, rows, options.written);
  if ((options.count ?? BULK_ROWS) >= BULK_ROWS && (await localInfileAllowed(db)))
    return loadRows(db, table, columns, rows, options.written);
  return insertRows(db, table, columns, rows, options.written);
}

/** Whether the server takes LOAD DATA LOCAL INFILE (MariaDB's default; MySQL 8 turns it off), asked once per transaction. */
const infileAllowed = new WeakMap<object, Promise<boolean>>();
function localInfileAllowed(db: Db): Promise<boolean> {
  const known = isTransaction(db) ? infileAllowed.get(db) : undefined;
  if (known) return known;
  const asked = (async () => {
    const [rows] = (await db.raw('SELECT @@GLOBAL.local_infile AS allowed')) as [Array<{ allowed: number | string }>];
    return Number(rows[0]?.allowed) === 1;
  })();
  if (isTransaction(db)) infileAllowed.set(db, asked);
  return asked;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\\0' };
/** The characters LOAD DATA's format escapes (see ESCAPES). */
const ESCAPED = /[\\\t\n\r\0]/g;
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** The most bytes a row can take in LOAD DATA's format: 3 per UTF-16 unit of text (escapes take 2, ASCII), 2 per byte. */
function roomFor(row: BulkRow): number {
  let room = row.length;
  for (const value of row)
    room += value === null ? 2 : typeof value === 'number' ? 24 : Buffer.isBuffer(value) ? 2 * value.length : 3 * value.length;
  return room;
}

/**
 * Writes a row in LOAD DATA's default format into `into` at `at` (roomFor(row) bytes free): tab-separated, backslash
 * escapes, \N for null, bytes as hex (see loadRows), a newline at the end. Answers where it ended. Written straight
 * into the chunk: joining strings first made most of an import's garbage.
 */
function writeRow(into: Buffer, at: number, row: BulkRow): number {
  for (let i = 0; i < row.length; i++) {
    if (i) into[at++] = 0x09;
    const value = row[i]!;
    if (value === null) {
      into[at++] = 0x5c;
      into[at++] = 0x4e;
    } else if (typeof value === 'number') at += into.write(String(value), at, 'latin1');
    else if (Buffer.isBuffer(value))
      for (const byte of value) {
        into[at++] = HEX[byte >> 4]!;
        into[at++] = HEX[byte & 15]!;
      }
    else
      at += into.write(
        value.replace(ESCAPED, (ch) => ESCAPES[ch]!),
        at,
        'utf8',
      );
  }
  into[at++] = 0x0a;
  return at;
}

/** The part of a mysql2 connection LOAD DATA LOCAL needs: the query takes the stream to send as the file. */
interface RawMysqlConnection {
  query(
    options: { sql: string; values: unknown[]; infileStreamFactory: () => Readable },
    done: (error: Error | null, result?: { affectedRows: number; warningStatus: number }) => void,
  ): void;
}

/** Rows between two reports of progress. */
const ROWS_PER_REPORT = 20_000;
/**
 * Bytes per chunk of the LOAD DATA stream: small enough that the server inserts one chunk while the next is made
 * (its rows are often made as they are read: a batch's postings, documents, history), large enough that the socket
 * writes cost little.
 */
const BYTES_PER_CHUNK = 32 * 1024;

/**
 * LOAD DATA LOCAL INFILE, the fastest way rows reach InnoDB (about twice a multi-row INSERT), formatting them as the
 * server reads the stream. Inside a transaction it is part of it (InnoDB rolls it back like an INSERT). Bytes travel
 * as hex in a user variable, decoded on the way in.
 */
async function loadRows(db: Db, table: string, columns: readonly string[], rows: Iterable<BulkRow>, written?: (done: number) => void) {
  const iterator = rows[Symbol.iterator]();
  const first = iterator.next();
  if (first.done) return;
  // Which columns hold bytes, from the first row: a column holds bytes in every row or in none.
  const bytes = new Set(first.value.flatMap((value, i) => (Buffer.isBuffer(value) ? [i] : [])));
  const source = (function* all() {
    yield first.value;
    for (let next = iterator.next(); !next.done; next = iterator.next()) yield next.value;
  })();
  let done = 0;
  let reported = 0;
  // A row that did not fit in the last chunk, sent first in the next.
  let pending: BulkRow | undefined;
  const lines = new Readable({
    read() {
      let chunk: Buffer | undefined;
      let length = 0;
      for (;;) {
        let row = pending;
        pending = undefined;
        if (!row) {
          const next = source.next();
          if (next.done) {
            if (length) this.push(chunk!.subarray(0, length));
            written?.(done);
            this.push(null);
            return;
          }
          row = next.value;
        }
        const room = roomFor(row);
        chunk ??= Buffer.allocUnsafe(Math.max(BYTES_PER_CHUNK, room));
        if (length + room > chunk.length) {
          pending = row;
          break;
        }
        length = writeRow(chunk, length, row);
        done++;
      }
      if (done - reported >= ROWS_PER_REPORT) written?.((reported = done));
      this.push(chunk.subarray(0, length));
    },
  });
  const targets = columns.map((column, i) => (bytes.has(i) ? `@${column}` : '??'));
  const decode = [...bytes].map((i) => `${columns[i]} = UNHEX(@${columns[i]})`);
  const connection = (await db.client.acquireConnection()) as RawMysqlConnection;
  try {
    const result = await new Promise<{ affectedRows: number; warningStatus: number }>((resolve, reject) =>
      connection.query(
        {
          sql: `LOAD DATA LOCAL INFILE 'rows' INTO TABLE ?? CHARACTER SET utf8mb4 (${targets.join(', ')})${decode.length ? ` SET ${decode.join(', ')}` : ''}`,
          values: [table, ...columns.filter((_, i) => !bytes.has(i))],
          infileStreamFactory: () => lines,
        },
        (error, answer) => (error ? reject(error) : resolve(answer!)),
      ),
    );
    if (result.warningStatus > 0 || result.affectedRows !== done)
      throw new Error(
        `LOAD DATA into ${table} kept ${result.affectedRows} of ${done} rows with ${result.warningStatus} warnings: rolled back`,
      );
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/** Rows per multi-row INSERT on MariaDB/MySQL. */
const ROWS_PER_INSERT = 10_000;
/**
 * Characters of text per INSERT, whatever the rows: 4 bytes each at most in utf8mb4, so a statement stays far under
 * the server's max_allowed_packet (16 MB by default on MariaDB, 64 MB on MySQL 8).
 */
const TEXT_PER_INSERT = 2_000_000;
/** Bindings per INSERT: MySQL takes at most 65,535 placeholders in a statement. */
const BINDINGS_PER_INSERT = 60_000;

/**
 * Multi-row INSERTs, where the server refuses LOAD DATA LOCAL or the rows are few. Numbers go into the statement as
 * digits, bytes as hex literals, null as NULL, and only text travels as bindings: binding 30,000 integers per
 * statement cost more than the database's own work.
 */
async function insertRows(db: Db, table: string, columns: readonly string[], rows: Iterable<BulkRow>, written?: (done: number) => void) {
  let values: string[] = [];
  let bindings: string[] = [];
  let text = 0;
  let done = 0;
  const flush = async () => {
    if (values.length) {
      const sql = 'INSERT INTO ?? (' + columns.map(() => '??').join(', ') + ') VALUES ' + values.join(',');
      await db.raw(sql, [table, ...columns, ...bindings]);
    }
    written?.((done += values.length));
    values = [];
    bindings = [];
    text = 0;
  };
  for (const row of rows) {
    const cells = row.map((value) => {
      if (typeof value === 'string') {
        bindings.push(value);
        text += value.length;
        return '?';
      }
      if (value === null) return 'NULL';
      if (Buffer.isBuffer(value)) return `X'${value.toString('hex')}'`;
      // A restored decimal or real comes as a number: its digits are an SQL literal too.
      if (!Number.isFinite(value)) throw new Error(`bulk value ${value} for ${table} is not a number`);
      return String(value);
    });
    values.push(`(${cells.join(',')})`);
    if (values.length === ROWS_PER_INSERT || text >= TEXT_PER_INSERT || bindings.length >= BINDINGS_PER_INSERT) await flush();
  }
  await flush();
}

/** The part of a better-sqlite3 connection used here. */
interface RawSqliteConnection {
  prepare(sql: string): PreparedInsert;
}
type PreparedInsert = { run(params: unknown[]): unknown };

/** Bindings per execution of SQLite's prepared multi-row INSERT (it takes at most 32,766). */
const SQLITE_BINDINGS = 2_000;

/** Prepared INSERTs per SQLite connection, by their SQL: prepared once, not on every call. */
const preparedInserts = new WeakMap<object, Map<string, PreparedInsert>>();

/**
 * SQLite: one multi-row INSERT of as many rows as fit in SQLITE_BINDINGS, and INSERTs of halving sizes for the rest, each
 * prepared once per connection and run again and again with new bindings, on the transaction's connection. Parsing
 * a statement as large costs more than running it, and Knex's builder (a compound SELECT capped at 500 terms) more
 * than both; a statement prepared per call also held its native memory until garbage collection freed it.
 */
async function preparedRows(db: Db, table: string, columns: readonly string[], rows: Iterable<BulkRow>, written?: (done: number) => void) {
  const connection = (await db.client.acquireConnection()) as RawSqliteConnection;
  try {
    const prepared = preparedInserts.get(connection) ?? new Map<string, PreparedInsert>();
    preparedInserts.set(connection, prepared);
    const insert = (count: number) => {
      const sql =
        `INSERT INTO "${table}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES ` +
        Array.from({ length: count }, () => `(${columns.map(() => '?').join(', ')})`).join(', ');
      let statement = prepared.get(sql);
      if (!statement) prepared.set(sql, (statement = connection.prepare(sql)));
      return statement;
    };
    const perStatement = Math.max(1, Math.floor(SQLITE_BINDINGS / columns.length));
    const bindings: BulkValue[] = [];
    let full: PreparedInsert | undefined;
    let pending = 0;
    let done = 0;
    for (const row of rows) {
      for (const value of row) bindings.push(value);
      if (++pending === perStatement) {
        (full ??= insert(perStatement)).run(bindings);
        bindings.length = 0;
        pending = 0;
        done += perStatement;
        if (done % ROWS_PER_REPORT < perStatement) written?.(done);
      }
    }
    // The rest in statements of halving sizes (at most log2(perStatement) more prepared per table): one row per
    // statement made an import batch's duplicate keys and postings thousands of statements.
    for (let at = 0, size = 1 << Math.floor(Math.log2(Math.max(1, pending))); at < pending; size >>= 1) {
      if (pending - at < size) continue;
      insert(size).run(bindings.slice(at * columns.length, (at + size) * columns.length));
      at += size;
    }
    written?.(done + pending);
  } finally {
    await db.client.releaseConnection(connection);
  }
}

/**
 * WAL pages SQLite lets build up during a bulk write (withBulkCheckpoints) before it copies them into the database
 * file: about 40 MB on disk, nothing in memory.
 */
const BULK_CHECKPOINT_PAGES = 10_000;

/**
 * Runs a write of many transactions (an import's batches) with SQLite's automatic checkpoint moved from 1,000 WAL
 * pages to BULK_CHECKPOINT_PAGES, then checkpoints once and puts the setting back. Each batch's inserts touch pages
 * all over the indexes (emails, keys, owners, postings); checkpointing after nearly every commit wrote most of
 * those pages into the database file again per batch, and took a third of an import of 100,000 contacts
 * (bench:general-import). The WAL is the connection's: other writes in the meantime are checkpointed with it.
 * MariaDB/MySQL: just runs `work`.
 */
export async function withBulkCheckpoints<T>(db: Knex, work: () => Promise<T>): Promise<T> {
  if (dialectOfDb(db) !== 'sqlite') return work();
  // better-sqlite3's own pragma(): SQLite takes no bound values in a PRAGMA.
  const pragma = async (sql: string) => {
    const connection = (await db.client.acquireConnection()) as { pragma(sql: string, options: { simple: true }): unknown };
    try {
      return connection.pragma(sql, { simple: true });
    } finally {
      await db.client.releaseConnection(connection);
    }
  };
  const before = Number(await pragma('wal_autocheckpoint'));
  await pragma(`wal_autocheckpoint = ${BULK_CHECKPOINT_PAGES}`);
  try {
    return await work();
  } finally {
    await pragma(`wal_autocheckpoint = ${Number.isInteger(before) ? before : 1000}`);
    await pragma('wal_checkpoint(PASSIVE)');
  }
}
