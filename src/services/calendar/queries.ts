import type { Knex } from 'knex';
import { decodeRow } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';

type RawRow = Record<string, unknown>;

/**
 * Events showing between two days: those starting in the range, and multi-day ones that started up to
 * `longestSpanDays` earlier and are still running. Bounded that way, the read stays one range of the
 * eventStartDate index instead of every event that started before the range.
 */
export async function eventsShowingBetween(db: Knex, from: string, until: string, earliestStart: string, limit: number) {
  const rows = (await db('events')
    .where('eventStartDate', '>=', earliestStart)
    .andWhere('eventStartDate', '<=', until)
    .andWhere((range) =>
      range
        .where('eventStartDate', '>=', from)
        .orWhere((running) => running.whereNotNull('eventEndDate').andWhere('eventEndDate', '>=', from)),
    )
    .select('id', 'eventName', 'eventStartDate', 'eventEndDate', 'featuredRace', 'locationState')
    .orderBy([
      { column: 'eventStartDate', order: 'asc' },
      { column: 'id', order: 'asc' },
    ])
    .limit(limit + 1)) as RawRow[];
  return { rows: rows.slice(0, limit).map((row) => decodeRow<RawRow>(columnKinds.events, row)), truncated: rows.length > limit };
}
