import type { Dialect } from '@db/knex.js';
import { encodeTimestamp } from '@db/codecs.js';

/**
 * What a backup archive holds (docs/decisions/0093-backup-archive-format.md):
 * - `db/<table>.ndjson`: a first line `{"table","columns"}`, then one JSON array of values per row, in the columns'
 *   order. Values are those both databases store (text, numbers, null); bytes are `{"$b64": "…"}`. So an archive
 *   made on SQLite restores into MariaDB and back.
 * - `files/<key>`: the stored bytes of every file the snapshot's rows name (the files table and Recently deleted).
 * - `manifest.json`, last: what the archive is, and the SHA-256 and size of every other part.
 */
export const FORMAT = 'pacer-backup';
export const FORMAT_VERSION = 1;
export const MANIFEST = 'manifest.json';

export interface PartInfo {
  sha256: string;
  bytes: number;
}

export interface Manifest {
  format: typeof FORMAT;
  formatVersion: number;
  pacerVersion: string;
  /** The last migration applied to the database the snapshot was taken of; `migrations` lists them all in order. */
  latestMigration: string;
  migrations: string[];
  dbKind: Dialect;
  createdAt: string;
  /** Rows per table in the snapshot. */
  tables: Record<string, number>;
  /** Every part but the manifest. */
  parts: Record<string, PartInfo>;
  /** Stored files a row names whose bytes were not found when the backup was made. */
  missingFiles: string[];
}

/**
 * Tables left out: the search index and counts (rebuilt from the rows after a restore, in the shape the target
 * database wants) and the migration runner's own bookkeeping (the restore replays the migrations instead). The
 * duplicate keys and pairs are archived, with derived_data_versions: a restore keeps them when this release's rules
 * version is the archive's, as a start after an upgrade does, since rebuilding the similar-name pairs took minutes.
 */
const SKIPPED_TABLES = new Set([
  'knex_migrations',
  'knex_migrations_lock',
  'record_search_docs',
  'record_search_grams',
  'record_counts',
  'payment_totals',
]);

export const isBackedUpTable = (table: string) => !SKIPPED_TABLES.has(table) && !table.startsWith('sqlite_') && !table.endsWith('_rebuilt');

export const tablePart = (table: string) => `db/${table}.ndjson`;
export const filePart = (key: string) => `files/${key}`;

/** A stored value as the archive writes it. */
export function toNeutral(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value)) return { $b64: value.toString('base64') };
  if (value instanceof Uint8Array) return { $b64: Buffer.from(value).toString('base64') };
  if (value instanceof Date) return encodeTimestamp(value);
  if (typeof value === 'bigint') return value.toString();
  // MySQL hands JSON columns back parsed; both databases store them as text.
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** An archived value as it is inserted again. */
export function fromNeutral(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && '$b64' in value)
    return Buffer.from(String((value as { $b64: unknown }).$b64), 'base64');
  return value;
}

/** The stored keys a Recently deleted entry's snapshot names (its files' bytes stay until the purge). */
export function keysInDeletedSnapshot(snapshot: unknown): string[] {
  try {
    const parsed = JSON.parse(String(snapshot)) as { owned?: { files?: Array<{ filePath?: unknown }> } };
    return (parsed.owned?.files ?? []).map((file) => String(file.filePath ?? '')).filter(Boolean);
  } catch {
    return [];
  }
}

/** Splits a stream of bytes into lines (UTF-8), holding at most one line at a time. */
export async function* lines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest = '';
  const decoder = new TextDecoder('utf8');
  for await (const chunk of chunks) {
    rest += decoder.decode(chunk, { stream: true });
    let at = rest.indexOf('\n');
    while (at >= 0) {
      yield rest.slice(0, at);
      rest = rest.slice(at + 1);
      at = rest.indexOf('\n');
    }
  }
  rest += decoder.decode();
  if (rest) yield rest;
}

/** The archive names this release makes: `pacer-backup-20261128-153000.tar.gz` (UTC), sorting by time. */
export const ARCHIVE_NAME = /^pacer-backup-\d{8}-\d{6}(-\d+)?\.tar\.gz$/;

export function archiveNameFor(at: Date): string {
  const iso = at.toISOString();
  return `pacer-backup-${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}.tar.gz`;
}
