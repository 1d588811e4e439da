import type { Knex } from 'knex';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, RECORD_TYPES, recordPagePath } from '@shared/record-types.js';
import { SearchQuerySchema, type SearchGroup, type SearchItem, type SearchResults, type SearchType } from '@shared/schemas/search.js';
import type { AppContext } from '../context.js';
import { parseInput } from '../validate.js';
import { CONTACT_INDEX, definitionOf } from '../records/definitions.js';
import { matchingIdsOfKinds, newestMatchesOfKinds, type Matches } from '../records/queries.js';

type RawRow = Record<string, unknown>;
const line = (...parts: Array<string | null | undefined>) => parts.filter(Boolean).join(' · ');
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** The groups, in the palette's order: the six record types, then contacts. */
const TYPES: readonly SearchType[] = [...RECORD_TYPES, 'contact'];
const codeOf = (type: SearchType) => (type === 'contact' ? CONTACT_INDEX : definitionOf(type)).code;

/**
 * How each type reads in the palette: the columns it needs (read as a, b, c, d of one UNION ALL over the types) and
 * how they become a title and a subtitle.
 */
interface Presentation {
  columns(db: Knex, ids: readonly number[]): Knex.QueryBuilder;
  present(row: RawRow): Omit<SearchItem, 'id' | 'url'>;
}
const noColumn = (db: Knex, name: string) => db.raw('NULL AS ??', [name]);
function recordColumns(table: string, a: string, b: string | null, c: string | null, d: string | null) {
  return (db: Knex, ids: readonly number[]) =>
    db(table)
      .whereIn('id', [...ids])
      .select(
        'id',
        `${a} as a`,
        b ? `${b} as b` : noColumn(db, 'b'),
        c ? `${c} as c` : noColumn(db, 'c'),
        d ? `${d} as d` : noColumn(db, 'd'),
      );
}
/** A contact's owner's name: the name column of whichever record type owns it. */
const OWNER_NAME: Record<(typeof CONTACT_OWNER_TYPES)[number], string> = {
  event: 'eventName',
  professional: 'businessName',
  runclub: 'clubName',
  brand: 'brandName',
  media: 'mediaName',
};

const PRESENTATIONS: Record<SearchType, Presentation> = {
  event: {
    columns: recordColumns('events', 'eventName', 'eventStartDate', 'locationState', null),
    present: (r) => ({ title: text(r.a), subtitle: line(text(r.b), text(r.c)) }),
  },
  professional: {
    columns: recordColumns('professionals', 'businessName', 'professionType', 'locationState', null),
    present: (r) => ({ title: text(r.a), subtitle: line(text(r.b), text(r.c)) }),
  },
  runclub: {
    columns: recordColumns('run_clubs', 'clubName', 'locationState', null, null),
    present: (r) => ({ title: text(r.a), subtitle: line(text(r.b)) }),
  },
  brand: {
    columns: recordColumns('brands', 'brandName', 'industryCategory', null, null),
    present: (r) => ({ title: text(r.a), subtitle: line(text(r.b)) }),
  },
  media: {
    columns: recordColumns('media', 'mediaName', 'industry', null, null),
    present: (r) => ({ title: text(r.a), subtitle: line(text(r.b)) }),
  },
  influencer: {
    columns: recordColumns('influencers', 'firstName', 'lastName', 'instagramHandle', 'influencerType'),
    present: (r) => ({ title: `${text(r.a)} ${text(r.b)}`, subtitle: line(r.c ? `@${text(r.c)}` : null, text(r.d)) }),
  },
  contact: {
    columns: (db, ids) => {
      const owners = CONTACT_OWNER_TYPES.map((type) => `o_${type}.${OWNER_NAME[type]}`);
      const builder = db('contacts as c')
        .whereIn('c.id', [...ids])
        .select(
          'c.id',
          'c.firstName as a',
          'c.lastName as b',
          'c.email as c',
          db.raw('COALESCE(' + owners.map(() => '??').join(', ') + ') AS ??', [...owners, 'd']),
        );
      for (const type of CONTACT_OWNER_TYPES) {
        builder.leftJoin(`${RECORD_TYPE_INFO[type].table} as o_${type}`, function joinOwner() {
          this.on(`o_${type}.id`, '=', 'c.entityId').andOn('c.entityType', '=', db.raw('?', [type]));
        });
      }
      return builder;
    },
    present: (r) => ({ title: `${text(r.a)} ${text(r.b)}`, subtitle: line(text(r.c), `Contact of ${text(r.d)}`) }),
  },
};

const urlOf = (type: SearchType, id: number) => (type === 'contact' ? `/contacts/${id}` : recordPagePath(type, id));

/**
 * GET /api/search: the newest few matches of every record type and of contacts, with each group's total. The same
 * substring semantics as the lists (their matcher, on the search index), in three round trips whatever the types:
 * the grams' posting counts (mostly remembered), the pages and totals of every type, then the matched rows' palette
 * columns. A search so holds one pooled connection at a time, so many palettes typing at once queue fairly.
 */
export async function globalSearch(ctx: AppContext, input: Record<string, string>): Promise<SearchResults> {
  const { q, limit } = parseInput(SearchQuerySchema, input);
  const db = ctx.db;
  const matches = await matchingIdsOfKinds(db, TYPES.map(codeOf), q);
  const searched = TYPES.flatMap((type, i) => (matches[i] ? [{ type, code: codeOf(type), matches: matches[i] as Matches }] : []));
  const found = await newestMatchesOfKinds(db, searched, limit);

  const withIds = searched.filter(({ code }) => found.get(code)!.ids.length > 0);
  const rowsByType = new Map<SearchType, Map<number, RawRow>>();
  if (withIds.length > 0) {
    const selects = withIds.map(({ type, code }) =>
      PRESENTATIONS[type].columns(db, found.get(code)!.ids).select(db.raw('? AS ??', [type, 'type'])),
    );
    const rows = (await selects[0]!.unionAll(selects.slice(1))) as RawRow[];
    for (const row of rows) {
      const type = row.type as SearchType;
      if (!rowsByType.has(type)) rowsByType.set(type, new Map());
      rowsByType.get(type)!.set(Number(row.id), row);
    }
  }

  const groups: SearchGroup[] = TYPES.map((type) => {
    const page = found.get(codeOf(type));
    const rows = rowsByType.get(type);
    const items = (page?.ids ?? []).flatMap((id): SearchItem[] => {
      const row = rows?.get(id);
      return row ? [{ id, ...PRESENTATIONS[type].present(row), url: urlOf(type, id) }] : [];
    });
    return { type, total: page?.total ?? 0, items };
  });
  return { groups };
}
