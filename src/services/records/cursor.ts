import { createHash } from 'node:crypto';
import { badRequest } from '../errors.js';
import { positionOf, reversePlan, type SeekPosition, type SortPlan } from './queries.js';

/**
 * A list cursor (`?after=` / `?before=`, and `next` / `prev` in a list's answer): the position of one row in one
 * order, as opaque URL-safe text (docs/decisions/0067-keyset-pagination.md). It names the sort and direction it
 * belongs to, the segment of the order (events' "upcoming" reads three), the row's sort values as stored and its
 * id. A checksum makes a changed or cut cursor a 400 rather than a seek from somewhere else.
 */

const VERSION = 1;
const CHECK_LENGTH = 8;
/** Longer than any cursor a list gives (a few sort values of at most a few hundred characters). */
const MAX_CURSOR_LENGTH = 4000;
const MAX_ID = 4_294_967_295;
const CURSOR_TEXT = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_CURSOR_LENGTH}}\\.[A-Za-z0-9_-]{${CHECK_LENGTH}}$`);

export interface CursorOrder {
  sort: string;
  dir: 'asc' | 'desc';
}

const checksumOf = (payload: string) => createHash('sha256').update(payload).digest('base64url').slice(0, CHECK_LENGTH);

export function encodeCursor(order: CursorOrder, position: SeekPosition): string {
  const payload = Buffer.from(JSON.stringify([VERSION, order.sort, order.dir, position.segment, position.values, position.id])).toString(
    'base64url',
  );
  return `${payload}.${checksumOf(payload)}`;
}

const isSortValue = (value: unknown): value is string | number | null =>
  value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));

/**
 * The position a cursor names, checked against the list's order: `valueCount` sort values and a segment below
 * `segments`. `param` names the parameter in the refusal ('after').
 */
function decodeCursor(text: string, param: string, order: CursorOrder, shape: { valueCount: number; segments: number }): SeekPosition {
  const refuse = () => badRequest(`${param} is not a cursor this list gave; start again from the first page`);
  if (!CURSOR_TEXT.test(text)) throw refuse();
  const [payload, check] = text.split('.') as [string, string];
  if (checksumOf(payload) !== check) throw refuse();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(parsed) || parsed.length !== 6 || parsed[0] !== VERSION) throw refuse();
  const [, sort, dir, segment, values, id] = parsed as unknown[];
  if (sort !== order.sort || dir !== order.dir) {
    throw badRequest(`${param} belongs to another sort than ${order.sort} ${order.dir}; start again from the first page`);
  }
  const wellFormed =
    Number.isSafeInteger(segment) &&
    (segment as number) >= 0 &&
    (segment as number) < shape.segments &&
    Array.isArray(values) &&
    values.length === shape.valueCount &&
    values.every(isSortValue) &&
    Number.isSafeInteger(id) &&
    (id as number) >= 1 &&
    (id as number) <= MAX_ID;
  if (!wellFormed) throw refuse();
  return { segment: segment as number, values: values as Array<string | number | null>, id: id as number };
}

/** A page request on a list order: from its start skipping `offset` rows, or the rows after a position. */
export interface OrderRequest {
  sort: SortPlan;
  limit: number;
  offset: number;
  after?: SeekPosition;
}

/** Rows read in a list order, each with the segment of the order it was read from. */
export interface RowsOfOrder {
  rows: Array<Record<string, unknown>>;
  segments: number[];
}

/**
 * One page of a list order by cursor or offset, and the cursors of the pages around it (the record lists and the
 * contacts directory alike). `after` reads the page following a cursor, `before` the page preceding one (the order
 * walked backwards from it, turned round); otherwise `offset` rows are skipped. `next` and `prev` are null at
 * either end, and `prev` on the first page. `read` answers one request, reading `limit` rows (one more than the
 * page, to know whether another follows).
 */
export async function pageByCursor<R extends RowsOfOrder>(
  plan: SortPlan,
  order: CursorOrder,
  query: { limit: number; offset: number; after?: string; before?: string },
  read: (request: OrderRequest) => Promise<R>,
): Promise<{ page: R; next: string | null; prev: string | null }> {
  const shape = { valueCount: plan[0].order.length - 1, segments: plan.length };
  const limit = query.limit + 1;
  const cursorAt = (page: RowsOfOrder, i: number) => encodeCursor(order, positionOf(plan, page.segments[i]!, page.rows[i]!));
  if (query.before !== undefined) {
    const position = decodeCursor(query.before, 'before', order, shape);
    const mirror = (segment: number) => plan.length - 1 - segment;
    const backwards = await read({ sort: reversePlan(plan), limit, offset: 0, after: { ...position, segment: mirror(position.segment) } });
    if (backwards.rows.length >= query.limit) {
      // Read walking backwards: turned round, the page in the list's order and its segments in the list's plan.
      const page = {
        ...backwards,
        rows: backwards.rows.slice(0, query.limit).reverse(),
        segments: backwards.segments.slice(0, query.limit).map(mirror).reverse(),
      };
      return { page, next: cursorAt(page, query.limit - 1), prev: backwards.rows.length > query.limit ? cursorAt(page, 0) : null };
    }
    // Fewer rows than a page before the cursor: they begin the list, so the answer is the first page.
  }
  const after = query.after !== undefined ? decodeCursor(query.after, 'after', order, shape) : undefined;
  const offset = after || query.before !== undefined ? 0 : query.offset;
  const whole = await read({ sort: plan, limit, offset, after });
  const page = { ...whole, rows: whole.rows.slice(0, query.limit), segments: whole.segments.slice(0, query.limit) };
  const next = whole.rows.length > query.limit ? cursorAt(page, query.limit - 1) : null;
  const prev = (after || offset > 0) && page.rows.length > 0 ? cursorAt(page, 0) : null;
  return { page, next, prev };
}
