import type { Knex } from 'knex';
import { BoundedCache } from '@shared/bounded-cache.js';
import { dialectOfDb } from './knex.js';
import { isTransaction } from './transaction.js';

/** The part of a mysql2 connection a statement needs (what Knex itself calls). */
interface MysqlConnection {
  query(options: { sql: string }, values: readonly unknown[], done: (error: Error | null, rows: unknown) => void): void;
}

/** The part of Knex's client that lends pooled connections (the same pool, limits and acquire timeout as any query). */
interface PooledClient {
  acquireConnection(): Promise<MysqlConnection>;
  releaseConnection(connection: MysqlConnection): Promise<void>;
}

/**
 * The rows of one SELECT written as SQL (`?` placeholders, identifiers both dialects read), for the reads every
 * request makes. On MySQL/MariaDB the statement goes straight to a connection of Knex's own pool: the query builder,
 * its compiler and its runner cost about as much CPU as the round trip itself, on every request. The rows are those
 * Knex would answer (the same driver call and connection settings). On SQLite, and inside a transaction (whose
 * connection Knex holds), it goes through `knex.raw`, which is cheap there.
 */
export async function selectRows<Row = Record<string, unknown>>(
  db: Knex | Knex.Transaction,
  sql: string,
  bindings: readonly unknown[],
): Promise<Row[]> {
  if (dialectOfDb(db) === 'sqlite') return (await db.raw(sql, bindings as Knex.RawBinding[])) as Row[];
  if (isTransaction(db)) return ((await db.raw(sql, bindings as Knex.RawBinding[])) as [Row[]])[0];
  // What Knex tells its 'query' listeners of each statement it sends (tests count a request's statements so).
  if (db.listenerCount('query') > 0) db.emit('query', { sql, bindings, method: 'raw' });
  const client = db.client as PooledClient;
  const connection = await client.acquireConnection();
  try {
    return await new Promise<Row[]>((resolve, reject) => {
      connection.query({ sql }, bindings, (error, rows) => (error ? reject(error) : resolve(rows as Row[])));
    });
  } finally {
    void client.releaseConnection(connection);
  }
}

/**
 * The rows of a SELECT built with Knex's query builder, sent as its compiled SQL through `selectRows`: building and
 * compiling cost a few microseconds, Knex's runner (its promise chain, events and response processing) tens more on
 * every statement of every list request (docs/decisions/0084-list-api-per-request-cost.md). Only for plain
 * SELECTs that answer rows (not `.first()`, `.pluck()` or counts read through Knex's response helpers).
 */
export function selectBuilt<Row = Record<string, unknown>>(db: Knex | Knex.Transaction, query: Knex.QueryBuilder): Promise<Row[]> {
  const { sql, bindings } = query.toSQL();
  return selectRows<Row>(db, sql, bindings);
}

/** Compiled statements by shape, per database client (each dialect writes its own SQL; a transaction has its own client). */
const compiledByClient = new WeakMap<object, BoundedCache<string, { sql: string; bindings: readonly unknown[] }>>();

/**
 * `selectBuilt` for a statement that `shape` names in full, text and bindings (a list's first page: its table,
 * filter, order, totals, limit and offset): built and compiled once per shape, then sent as it is. The hottest read
 * of the list API then costs no query building at all. Bounded, as the shapes include client-chosen limits and offsets.
 */
export function selectByShape<Row = Record<string, unknown>>(
  db: Knex | Knex.Transaction,
  shape: string,
  build: () => Knex.QueryBuilder,
): Promise<Row[]> {
  const client = db.client as object;
  let compiled = compiledByClient.get(client);
  if (!compiled) {
    compiled = new BoundedCache(1000);
    compiledByClient.set(client, compiled);
  }
  const { sql, bindings } = compiled.get(shape, () => {
    const statement = build().toSQL();
    return { sql: statement.sql, bindings: statement.bindings };
  });
  return selectRows<Row>(db, sql, [...bindings]);
}
