import type { Knex } from 'knex';
import { decodeTimestamp, encodeTimestamp } from '@db/codecs.js';
import type { ActivityItem, ActivityPage } from '@shared/activity.js';
import { badRequest } from '../errors.js';

/**
 * A timeline or a log page is merged from a few streams (docs/decisions/0106), each one indexed statement read
 * newest first from the cursor on, at most a page and one more row each; the merge keeps the newest page. The
 * order is (time newest first, stream rank, row id newest first), so ties between streams are stable too.
 */
export interface ActivityStream<K extends string> {
  /** Its place among the streams when two entries share a time; also the prefix of its entries' ids. */
  rank: number;
  name: string;
  /** The stream's rows, filtered; the cursor's condition and the order are added here. */
  rows(): Knex.QueryBuilder;
  atColumn: string;
  idColumn: string;
  item(row: Record<string, unknown>): Omit<ActivityItem<K>, 'id' | 'at'>;
}

type Position = [at: string, rank: number, id: number];

function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodeCursor(text: string): Position {
  const fail = () => badRequest('after is not a cursor this list gave');
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) throw fail();
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw fail();
  }
  if (
    !Array.isArray(value) ||
    value.length !== 3 ||
    typeof value[0] !== 'string' ||
    Number.isNaN(Date.parse(value[0])) ||
    !Number.isInteger(value[1]) ||
    !Number.isInteger(value[2])
  )
    throw fail();
  return value as Position;
}

/** Rows after the cursor position, in this stream's terms. */
function afterPosition(query: Knex.QueryBuilder, stream: ActivityStream<string>, [at, rank, id]: Position): void {
  const stored = encodeTimestamp(at)!;
  if (stream.rank > rank) query.where(stream.atColumn, '<=', stored);
  else if (stream.rank < rank) query.where(stream.atColumn, '<', stored);
  else
    query.where((q) =>
      q.where(stream.atColumn, '<', stored).orWhere((same) => same.where(stream.atColumn, stored).where(stream.idColumn, '<', id)),
    );
}

/** One page of the merged streams, newest first, from `after` (a cursor an earlier page gave) on. */
export async function readStreams<K extends string>(
  streams: ReadonlyArray<ActivityStream<K>>,
  after: string | null,
  pageSize: number,
): Promise<ActivityPage<K>> {
  const position = after ? decodeCursor(after) : null;
  const parts = await Promise.all(
    streams.map(async (stream) => {
      const query = stream.rows();
      if (position) afterPosition(query, stream, position);
      const rows = (await query
        .orderBy([
          { column: stream.atColumn, order: 'desc' },
          { column: stream.idColumn, order: 'desc' },
        ])
        .limit(pageSize + 1)) as Array<Record<string, unknown>>;
      return rows.map((row) => {
        const at = decodeTimestamp(row.activityAt)!;
        const rowId = Number(row.activityId);
        return { key: [at, stream.rank, rowId] as Position, item: { id: `${stream.name}-${rowId}`, at, ...stream.item(row) } };
      });
    }),
  );
  const merged = parts.flat().sort((a, b) => {
    if (a.key[0] !== b.key[0]) return a.key[0] < b.key[0] ? 1 : -1;
    if (a.key[1] !== b.key[1]) return a.key[1] - b.key[1];
    return b.key[2] - a.key[2];
  });
  const page = merged.slice(0, pageSize);
  return {
    items: page.map((entry) => entry.item as ActivityItem<K>),
    next: merged.length > pageSize ? encodeCursor(page[page.length - 1]!.key) : null,
  };
}

/** `from`/`to` dates (YYYY-MM-DD, UTC days, both included) as stored instants; a malformed one is a 400. */
export function dateRange(from: string | null, to: string | null): { from: string | null; to: string | null } {
  const day = (name: string, text: string | null, offset: number) => {
    if (text === null || text === '') return null;
    const match = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00.000Z`) : null;
    if (!match || Number.isNaN(match.getTime()) || match.toISOString().slice(0, 10) !== text)
      throw badRequest(`${name} must be a date (YYYY-MM-DD)`);
    return encodeTimestamp(new Date(match.getTime() + offset))!;
  };
  return { from: day('from', from, 0), to: day('to', to, 86_400_000) };
}
