import type { Knex } from 'knex';
import { describeEntry, historyActorText, type HistoryActorKind, type HistoryEntry } from '@shared/history.js';
import { RECORD_TYPE_INFO, type RecordType } from '@shared/record-types.js';
import { TIMELINE_KINDS, type ActivityItem, type ActivityPage, type ActivitySource, type TimelineKind } from '@shared/activity.js';
import type { NoteOwnerType } from '@shared/schemas/notes.js';
import type { AppContext } from '../context.js';
import { badRequest } from '../errors.js';
import { assertNoteOwner } from '../notes/owners.js';
import { readStreams, type ActivityStream } from './streams.js';

/** Entries of one page of a record's or a contact's timeline. */
const TIMELINE_PAGE_SIZE = 50;

/** History subjects that show on their owning record's timeline under their own kind. */
const OWNED_KIND: Record<string, TimelineKind> = { payment: 'payment', file: 'file', contact: 'contact' };

const SOURCE_OF_ACTOR: Record<HistoryActorKind, ActivitySource> = {
  user: 'screen',
  cli: 'cli',
  import: 'import',
  sync: 'sync',
  token: 'token',
};

/** "Anna Lee", or the e-mail address of a user without a name; null without a user. */
export function userOf(row: Record<string, unknown>): { id: number; name: string } | null {
  if (row.userId === null || row.userId === undefined) return null;
  const name = `${String(row.firstName ?? '')} ${String(row.lastName ?? '')}`.trim() || String(row.email ?? '');
  return { id: Number(row.userId), name };
}

const USER_COLUMNS = ['u.id as userId', 'u.firstName', 'u.lastName', 'u.email'];

const excerpt = (text: unknown, length = 200) => {
  const flat = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
};

function historyEntryOf(row: Record<string, unknown>): HistoryEntry {
  return {
    id: Number(row.activityId),
    at: '',
    action: row.action as HistoryEntry['action'],
    actor: { kind: row.actorKind as HistoryActorKind, label: String(row.actorLabel), runId: (row.runId as string | null) ?? null },
    changes: JSON.parse(String(row.changes)) as Record<string, unknown>,
  };
}

const nounOf = (subject: string) => (subject in RECORD_TYPE_INFO ? RECORD_TYPE_INFO[subject as RecordType].noun : subject);

/** The one line a history entry reads as on a timeline or in the log. */
function historySummary(row: Record<string, unknown>): string {
  const entry = historyEntryOf(row);
  const subject = String(row.entityType);
  const who = historyActorText(entry.actor);
  const values = entry.changes as Record<string, unknown>;
  const name = `${String(values.firstName ?? '')} ${String(values.lastName ?? '')}`.trim();
  const verb = entry.action === 'create' ? 'added' : 'removed';
  if (entry.action !== 'update') {
    if (subject === 'payment') return `${who} ${verb} a payment: ${excerpt(values.description, 100)} (${String(values.amount ?? '')})`;
    if (subject === 'file') return `${who} ${verb} the file ${String(values.originalName ?? '')}`;
    if (subject === 'contact') return `${who} ${verb} the contact ${name}`;
  }
  return describeEntry(entry, nounOf(subject)).join('; ') || `${who} changed this ${nounOf(subject)}`;
}

export function historyItem<K extends string>(row: Record<string, unknown>, kind: K): Omit<ActivityItem<K>, 'id' | 'at'> {
  return {
    kind,
    actor: row.actorId === null || row.actorId === undefined ? null : { id: Number(row.actorId), name: String(row.actorLabel) },
    source: SOURCE_OF_ACTOR[row.actorKind as HistoryActorKind] ?? null,
    summary: historySummary(row),
    recordType: (row.ownerType as string | null) ?? String(row.entityType),
    recordId: row.ownerId === null || row.ownerId === undefined ? Number(row.entityId) : Number(row.ownerId),
  };
}

export const HISTORY_COLUMNS = [
  'h.id as activityId',
  'h.at as activityAt',
  'h.entityType',
  'h.entityId',
  'h.ownerType',
  'h.ownerId',
  'h.action',
  'h.actorId',
  'h.actorKind',
  'h.actorLabel',
  'h.runId',
  'h.changes',
];

function parseKinds(text: string | null, allowed: readonly TimelineKind[]): Set<TimelineKind> {
  if (text === null || text === '') return new Set(allowed);
  const kinds = text.split(',');
  const wrong = kinds.find((kind) => !allowed.includes(kind as TimelineKind));
  if (wrong !== undefined) throw badRequest(`kind must be one of ${allowed.join(', ')}`);
  return new Set(kinds as TimelineKind[]);
}

/** The kinds a contact's timeline holds: its notes, tasks, changes and Mailchimp pushes. */
const CONTACT_KINDS: readonly TimelineKind[] = ['note', 'task', 'change', 'mailchimp'];

/**
 * A record's (or a contact's) activity, newest first (`GET /api/{type}/{id}/activity?kind=&after=`): its notes,
 * tasks created and done, field changes, payments, files, contacts added and removed, and Mailchimp pushes. Five
 * indexed statements a page at most (docs/decisions/0106).
 */
export async function getTimeline(
  ctx: AppContext,
  ownerType: NoteOwnerType,
  ownerId: number,
  query: URLSearchParams,
): Promise<ActivityPage<TimelineKind>> {
  const isContact = ownerType === 'contact';
  const kinds = parseKinds(query.get('kind'), isContact ? CONTACT_KINDS : TIMELINE_KINDS);
  await assertNoteOwner(ctx.db, ownerType, ownerId);
  const db = ctx.db;
  const owned = (alias: string, q: Knex.QueryBuilder) => q.where(`${alias}.entityType`, ownerType).where(`${alias}.entityId`, ownerId);
  const streams: Array<ActivityStream<TimelineKind>> = [];
  const recordOf = { recordType: ownerType, recordId: ownerId };
  if (kinds.has('note'))
    streams.push({
      rank: 0,
      name: 'note',
      atColumn: 'n.createdAt',
      idColumn: 'n.id',
      rows: () =>
        owned('n', db('notes as n').leftJoin('users as u', 'u.id', 'n.createdBy')).select(
          'n.id as activityId',
          'n.createdAt as activityAt',
          'n.body',
          ...USER_COLUMNS,
        ),
      item: (row) => ({ kind: 'note', actor: userOf(row), source: null, summary: excerpt(row.body), ...recordOf }),
    });
  if (kinds.has('task'))
    streams.push(
      ...taskStreams<TimelineKind>(
        db,
        [1, 2],
        (rows) => owned('t', rows),
        () => recordOf,
      ),
    );
  const subjects = isContact
    ? kinds.has('change')
      ? ['contact']
      : []
    : [...(kinds.has('change') ? [ownerType] : []), ...Object.keys(OWNED_KIND).filter((subject) => kinds.has(OWNED_KIND[subject]!))];
  if (subjects.length)
    streams.push({
      rank: 3,
      name: 'history',
      atColumn: 'h.at',
      idColumn: 'h.id',
      rows: () => {
        const rows = db('history as h').select(HISTORY_COLUMNS);
        // A contact's own entries; a record's own and those of what it owns (the owner columns, one index).
        if (isContact) return rows.where('h.entityType', 'contact').where('h.entityId', ownerId);
        rows.where('h.ownerType', ownerType).where('h.ownerId', ownerId);
        return subjects.length < 4 ? rows.whereIn('h.entityType', subjects) : rows;
      },
      item: (row) => historyItem(row, OWNED_KIND[String(row.entityType)] && !isContact ? OWNED_KIND[String(row.entityType)]! : 'change'),
    });
  if (kinds.has('mailchimp'))
    streams.push({
      rank: 4,
      name: 'event',
      atColumn: 'e.createdAt',
      idColumn: 'e.id',
      rows: () =>
        db('activity_events as e')
          .where('e.ownerType', ownerType)
          .where('e.ownerId', ownerId)
          .where('e.kind', 'mailchimp')
          .select('e.id as activityId', 'e.createdAt as activityAt', 'e.actorId', 'e.actorLabel', 'e.source', 'e.summary'),
      item: (row) => ({ kind: 'mailchimp', ...eventFields(row), ...recordOf }),
    });
  return readStreams(streams, query.get('after'), TIMELINE_PAGE_SIZE);
}

/**
 * Tasks as activity: one entry when a task was made (by its creator) and one when it was done (by whoever did it).
 * `narrow` limits the rows (a record's tasks; the log's filters, told which time and user column each entry reads).
 */
export function taskStreams<K extends string>(
  db: Knex,
  ranks: readonly [number, number],
  narrow: (rows: Knex.QueryBuilder, at: { atColumn: string; userColumn: string }) => Knex.QueryBuilder,
  recordOf: (row: Record<string, unknown>) => Pick<ActivityItem, 'recordType' | 'recordId'>,
): Array<ActivityStream<K>> {
  const stream = (rank: number, name: string, atColumn: string, userColumn: string, what: string): ActivityStream<K> => ({
    rank,
    name,
    atColumn,
    idColumn: 't.id',
    rows: () => {
      const rows = narrow(db('tasks as t').leftJoin('users as u', 'u.id', userColumn), { atColumn, userColumn }).select(
        't.id as activityId',
        `${atColumn} as activityAt`,
        't.title',
        't.entityType',
        't.entityId',
        ...USER_COLUMNS,
      );
      return name === 'taskdone' ? rows.where('t.done', true).whereNotNull('t.doneAt') : rows;
    },
    item: (row) => ({ kind: 'task' as K, actor: userOf(row), source: null, summary: `${what}: ${String(row.title)}`, ...recordOf(row) }),
  });
  return [
    stream(ranks[0], 'task', 't.createdAt', 't.createdBy', 'Task created'),
    stream(ranks[1], 'taskdone', 't.doneAt', 't.doneBy', 'Task done'),
  ];
}

/** The actor, source and summary of an activity_events row. */
export function eventFields(row: Record<string, unknown>): Pick<ActivityItem, 'actor' | 'source' | 'summary'> {
  return {
    actor: row.actorId === null || row.actorId === undefined ? null : { id: Number(row.actorId), name: String(row.actorLabel) },
    source: SOURCE_OF_ACTOR[row.source as HistoryActorKind] ?? null,
    summary: String(row.summary),
  };
}
