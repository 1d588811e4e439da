import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { encodeTimestamp } from '@db/codecs.js';
import { LOG_KINDS, type ActivityItem, type ActivityPage, type LogKind } from '@shared/activity.js';
import { RECORD_TYPES } from '@shared/record-types.js';
import type { Actor, AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { historyActorOf } from '../history/service.js';
import { requireRole } from '../roles.js';
import { csvRecord } from '../records/csv-writer.js';
import { dateRange, readStreams, type ActivityStream } from './streams.js';
import { eventFields, historyItem, HISTORY_COLUMNS, taskStreams, userOf } from './timeline.js';

const LOG_PAGE_SIZE = 50;

/** What the log's `type` filter takes: the six record types and the other things history is kept of. */
const LOG_TYPES = [...RECORD_TYPES, 'contact', 'payment', 'file', 'user'] as const;

/** History entries by how they were made: the kinds of the log they are. */
const ACTOR_KINDS: Partial<Record<LogKind, string[]>> = { change: ['user', 'cli'], import: ['import'], sync: ['sync'], token: ['token'] };
const KIND_OF_ACTOR: Record<string, LogKind> = { user: 'change', cli: 'change', import: 'import', sync: 'sync', token: 'token' };
const SIGN_INS = ['sign_in', 'second_factor'];

interface LogFilter {
  kinds: Set<LogKind>;
  userId: number | null;
  type: string | null;
  from: string | null;
  to: string | null;
}

function parseFilter(query: URLSearchParams): LogFilter {
  const kindText = query.get('kind') ?? '';
  const kinds = kindText === '' ? [...LOG_KINDS] : kindText.split(',');
  if (kinds.some((kind) => !(LOG_KINDS as readonly string[]).includes(kind)))
    throw badRequest(`kind must be one of ${LOG_KINDS.join(', ')}`);
  const userText = query.get('user') ?? '';
  const userId = userText === '' ? null : Number(userText);
  if (userId !== null && (!Number.isInteger(userId) || userId < 1 || userId > 2 ** 31)) throw badRequest('user must be a user id');
  const type = query.get('type') || null;
  if (type !== null && !(LOG_TYPES as readonly string[]).includes(type)) throw badRequest(`type must be one of ${LOG_TYPES.join(', ')}`);
  const range = dateRange(query.get('from'), query.get('to'));
  return { kinds: new Set(kinds as LogKind[]), userId, type, ...range };
}

function within(query: Knex.QueryBuilder, column: string, filter: LogFilter): Knex.QueryBuilder {
  if (filter.from) query.where(column, '>=', filter.from);
  if (filter.to) query.where(column, '<', filter.to);
  return query;
}

function logStreams(db: Knex, filter: LogFilter): Array<ActivityStream<LogKind>> {
  const streams: Array<ActivityStream<LogKind>> = [];
  const { kinds, userId, type } = filter;
  const actorKinds = Object.entries(ACTOR_KINDS).flatMap(([kind, actors]) => (kinds.has(kind as LogKind) ? actors : []));
  if (actorKinds.length)
    streams.push({
      rank: 0,
      name: 'history',
      atColumn: 'h.at',
      idColumn: 'h.id',
      rows: () => {
        const rows = within(db('history as h').select(HISTORY_COLUMNS), 'h.at', filter);
        if (actorKinds.length < 5) rows.whereIn('h.actorKind', actorKinds);
        if (userId !== null) rows.where('h.actorId', userId);
        if (type !== null)
          rows.where((q) =>
            (RECORD_TYPES as readonly string[]).includes(type) ? q.where('h.ownerType', type) : q.where('h.entityType', type),
          );
        return rows;
      },
      item: (row) => historyItem(row, KIND_OF_ACTOR[String(row.actorKind)] ?? 'change'),
    });
  if (kinds.has('note'))
    streams.push({
      rank: 1,
      name: 'note',
      atColumn: 'n.createdAt',
      idColumn: 'n.id',
      rows: () => {
        const rows = within(db('notes as n').leftJoin('users as u', 'u.id', 'n.createdBy'), 'n.createdAt', filter).select(
          'n.id as activityId',
          'n.createdAt as activityAt',
          'n.body',
          'n.entityType',
          'n.entityId',
          'u.id as userId',
          'u.firstName',
          'u.lastName',
          'u.email',
        );
        if (userId !== null) rows.where('n.createdBy', userId);
        if (type !== null) rows.where('n.entityType', type);
        return rows;
      },
      item: (row) => ({
        kind: 'note',
        actor: userOf(row),
        source: null,
        summary: `Note: ${String(row.body).replace(/\s+/g, ' ').slice(0, 200)}`,
        recordType: String(row.entityType),
        recordId: Number(row.entityId),
      }),
    });
  if (kinds.has('task'))
    streams.push(
      ...taskStreams<LogKind>(
        db,
        [4, 5],
        (rows, { atColumn, userColumn }) => {
          within(rows, atColumn, filter);
          if (userId !== null) rows.where(userColumn, userId);
          if (type !== null) rows.where('t.entityType', type);
          return rows;
        },
        (row) => ({
          recordType: (row.entityType as string | null) ?? null,
          recordId: row.entityId === null || row.entityId === undefined ? null : Number(row.entityId),
        }),
      ),
    );
  const signIns = (['sign_in', 'failed_sign_in', 'security'] as const).filter((kind) => kinds.has(kind));
  if (signIns.length && type === null)
    streams.push({
      rank: 2,
      name: 'signin',
      atColumn: 's.occurredAt',
      idColumn: 's.id',
      rows: () => {
        const rows = within(db('sign_in_events as s').leftJoin('users as u', 'u.id', 's.userId'), 's.occurredAt', filter).select(
          's.id as activityId',
          's.occurredAt as activityAt',
          's.kind',
          's.succeeded',
          's.email as signInEmail',
          's.detail',
          's.ip',
          'u.id as userId',
          'u.firstName',
          'u.lastName',
          'u.email',
        );
        if (userId !== null) rows.where('s.userId', userId);
        if (signIns.length < 3)
          rows.where((q) => {
            if (signIns.includes('sign_in')) q.orWhere((w) => w.whereIn('s.kind', SIGN_INS).where('s.succeeded', true));
            if (signIns.includes('failed_sign_in')) q.orWhere((w) => w.whereIn('s.kind', SIGN_INS).where('s.succeeded', false));
            if (signIns.includes('security')) q.orWhereNotIn('s.kind', SIGN_INS);
          });
        return rows;
      },
      item: (row) => {
        const succeeded = Boolean(Number(row.succeeded));
        const kind: LogKind = SIGN_INS.includes(String(row.kind)) ? (succeeded ? 'sign_in' : 'failed_sign_in') : 'security';
        const who = userOf(row)?.name ?? String(row.signInEmail);
        const what = String(row.kind).replace(/_/g, ' ');
        const summary =
          kind === 'sign_in'
            ? `${who} signed in from ${String(row.ip)}`
            : kind === 'failed_sign_in'
              ? `Failed sign-in for ${who} from ${String(row.ip)}${row.detail ? ` (${String(row.detail)})` : ''}`
              : `${who}: ${what}${succeeded ? '' : ' (failed)'}`;
        return { kind, actor: userOf(row), source: null, summary, recordType: null, recordId: null };
      },
    });
  const events = (['export', 'mailchimp', 'token'] as const).filter((kind) => kinds.has(kind));
  if (events.length)
    streams.push({
      rank: 3,
      name: 'event',
      atColumn: 'e.createdAt',
      idColumn: 'e.id',
      rows: () => {
        const rows = within(db('activity_events as e'), 'e.createdAt', filter)
          .whereIn('e.kind', events)
          .select(
            'e.id as activityId',
            'e.createdAt as activityAt',
            'e.kind',
            'e.ownerType',
            'e.ownerId',
            'e.actorId',
            'e.actorLabel',
            'e.source',
            'e.summary',
          );
        if (userId !== null) rows.where('e.actorId', userId);
        // A push is kept on the contact and on its record: the log lists it once, the contact's.
        if (type !== null) rows.where('e.ownerType', type);
        else rows.where((q) => q.whereNot('e.kind', 'mailchimp').orWhere('e.ownerType', 'contact'));
        return rows;
      },
      item: (row) => ({
        kind: row.kind as LogKind,
        ...eventFields(row),
        recordType: (row.ownerType as string | null) ?? null,
        recordId: row.ownerId === null ? null : Number(row.ownerId),
      }),
    });
  return streams;
}

/** The site-wide activity log (`GET /api/activity`, admins): every change, note, task, sign-in, export and push, newest first. */
export async function getActivityLog(ctx: AppContext, actor: Actor, query: URLSearchParams): Promise<ActivityPage<LogKind>> {
  requireRole(actor, 'admin');
  return readStreams(logStreams(ctx.db, parseFilter(query)), query.get('after'), LOG_PAGE_SIZE);
}

const CSV_HEADER = ['Time', 'Kind', 'Who', 'Source', 'Record type', 'Record id', 'What'];

function csvRow(item: ActivityItem): string {
  return csvRecord([
    item.at,
    item.kind,
    item.actor?.name ?? '',
    item.source ?? '',
    item.recordType ?? '',
    item.recordId === null ? '' : String(item.recordId),
    item.summary,
  ]);
}

/**
 * The log as CSV (`GET /api/activity.csv`, same filters), streamed a page of 500 at a time. The role and the filters
 * are checked before the first byte, so a refusal is a plain 4xx.
 */
export function activityLogCsv(ctx: AppContext, actor: Actor, query: URLSearchParams): Readable {
  requireRole(actor, 'admin');
  const filter = parseFilter(query);
  if (query.get('after')) throw badRequest('the CSV export starts at the newest entry; leave out after');
  async function* lines() {
    yield '\uFEFF' + csvRecord(CSV_HEADER);
    let after: string | null = null;
    do {
      const page: ActivityPage<LogKind> = await readStreams(logStreams(ctx.db, filter), after, 500);
      if (page.items.length) yield page.items.map(csvRow).join('');
      after = page.next;
    } while (after);
  }
  return Readable.from(lines());
}

/**
 * Exports, Mailchimp pushes and API token uses: what has no row of its own, so the log (and a record's timeline)
 * keeps one.
 */
interface ActivityEventInput {
  kind: 'export' | 'mailchimp' | 'token';
  ownerType?: string;
  ownerId?: number;
  summary: string;
}

/** Records exports, Mailchimp pushes or token uses in the caller's database or transaction. */
export async function recordActivityEvents(db: Knex, ctx: AppContext, actor: Actor, events: readonly ActivityEventInput[]): Promise<void> {
  if (events.length === 0) return;
  const who = await historyActorOf(db, actor);
  const createdAt = encodeTimestamp(ctx.clock.now());
  const rows = events.map((event) => ({
    ownerType: event.ownerType ?? null,
    ownerId: event.ownerId ?? null,
    kind: event.kind,
    actorId: who.actorId,
    source: who.kind,
    actorLabel: who.label,
    summary: event.summary.slice(0, 500),
    createdAt,
  }));
  // In statements of at most 500 rows: a newsletter push of a whole audience names every contact twice.
  for (let start = 0; start < rows.length; start += 500) await db('activity_events').insert(rows.slice(start, start + 500));
}
