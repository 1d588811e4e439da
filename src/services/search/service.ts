import type { Knex } from 'knex';
import { CONTACT_OWNER_TYPES, RECORD_TYPE_INFO, RECORD_TYPES, recordPagePath } from '@shared/record-types.js';
import { INFLUENCER_TYPE_LABELS, labelOf, PROFESSION_TYPE_LABELS } from '@shared/labels.js';
import { SearchQuerySchema, type SearchGroup, type SearchItem, type SearchResults, type SearchType } from '@shared/schemas/search.js';
import type { AppContext } from '../context.js';
import { parseInput } from '../validate.js';
import { CONTACT_INDEX, definitionOf } from '../records/definitions.js';
import { changeNumberSql, matchingIdsOfKinds, newestMatches, rememberedTotal, rememberTotal, type Matches } from '../records/queries.js';

type RawRow = Record<string, unknown>;
const line = (...parts: Array<string | null | undefined>) => parts.filter(Boolean).join(' · ');
const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** The groups, in the palette's order: the six record types, then contacts. */
const TYPES: readonly SearchType[] = [...RECORD_TYPES, 'contact'];
const codeOf = (type: SearchType) => (type === 'contact' ? CONTACT_INDEX : definitionOf(type)).code;

/**
 * How each type reads in the palette: its rows of one page of matches (`page`, a derived table of `recordId`s to join)
 * with the columns it needs as a, b, c, d, and how they become a title and a subtitle.
 */
interface Presentation {
  rows(db: Knex, page: Knex.QueryBuilder): Knex.QueryBuilder;
  present(row: RawRow): Omit<SearchItem, 'id' | 'url'>;
}
const noColumn = (db: Knex, name: string) => db.raw('NULL AS ??', [name]);
function recordColumns(table: string, a: string, b: string | null, c: string | null, d: string | null) {
  return (db: Knex, page: Knex.QueryBuilder) =>
    db(`${table} as r`)
      .join(page.as('p'), 'p.recordId', 'r.id')
      .select(
        'r.id as id',
        `r.${a} as a`,
        b ? `r.${b} as b` : noColumn(db, 'b'),
        c ? `r.${c} as c` : noColumn(db, 'c'),
        d ? `r.${d} as d` : noColumn(db, 'd'),
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
    rows: recordColumns('events', 'eventName', 'eventStartDate', 'locationState', null),
    // The start day goes apart, so the palette formats it in the reader's locale like every other date.
    present: (r) => ({ title: text(r.a), subtitle: line(text(r.c)), ...(r.b ? { date: text(r.b).slice(0, 10) } : {}) }),
  },
  professional: {
    rows: recordColumns('professionals', 'businessName', 'professionType', 'locationState', null),
    present: (r) => ({ title: text(r.a), subtitle: line(r.b ? labelOf(PROFESSION_TYPE_LABELS, text(r.b)) : null, text(r.c)) }),
  },
  runclub: {
    rows: recordColumns('run_clubs', 'clubName', 'locationState', null, null),
    present: (r) => ({ title: text(r.a), subtitle: line(text(r.b)) }),
  },
  brand: {
    rows: recordColumns('brands', 'brandName', 'industryCategory', null, null),
    present: (r) => ({ title: text(r.a), subtitle: line(text(r.b)) }),
  },
  media: {
    rows: recordColumns('media', 'mediaName', 'industry', null, null),
    present: (r) => ({ title: text(r.a), subtitle: line(text(r.b)) }),
  },
  influencer: {
    rows: recordColumns('influencers', 'firstName', 'lastName', 'instagramHandle', 'influencerType'),
    present: (r) => ({
      title: `${text(r.a)} ${text(r.b)}`,
      subtitle: line(r.c ? `@${text(r.c)}` : null, r.d ? labelOf(INFLUENCER_TYPE_LABELS, text(r.d)) : null),
    }),
  },
  contact: {
    rows: (db, page) => {
      const owners = CONTACT_OWNER_TYPES.map((type) => `o_${type}.${OWNER_NAME[type]}`);
      const builder = db('contacts as c')
        .join(page.as('p'), 'p.recordId', 'c.id')
        .select(
          'c.id as id',
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

interface Searched {
  type: SearchType;
  code: number;
  matches: Matches;
  /** Whether its page was read from only the newest of its candidates. */
  cut?: boolean;
}

/** SQL text and bindings, put together by hand: Knex binds values in a select list out of order beside a subquery. */
interface Sql {
  sql: string;
  bindings: unknown[];
}
const sqlOf = (builder: Knex.QueryBuilder): Sql => {
  const { sql, bindings } = builder.toSQL();
  return { sql, bindings: [...bindings] };
};
/**
 * What a row of the statement is: one of a page's rows, a counted total, the change number a remembered total was
 * counted at, or the change number a remembered "no match" was found at.
 */
const ROLE = { row: 1, counted: 2, rememberedTotal: 3, rememberedNone: 4 } as const;
const COLUMNS = ['role', 'kind', 'id', 'a', 'b', 'c', 'd', 'n', 'changes'] as const;
/** One part of the UNION ALL: the given columns, the others NULL, in COLUMNS' order. */
function part(role: number, given: Partial<Record<(typeof COLUMNS)[number], Sql>>, from?: Sql): Sql {
  const columns = COLUMNS.map((name) => (name === 'role' ? value(role) : (given[name] ?? { sql: 'NULL', bindings: [] })));
  return {
    sql:
      'SELECT ' + columns.map((column, i) => column.sql + ' AS ' + COLUMNS[i]).join(', ') + (from ? ' FROM (' + from.sql + ') AS x' : ''),
    bindings: [...columns.flatMap((column) => column.bindings), ...(from?.bindings ?? [])],
  };
}
const value = (v: string | number): Sql => ({ sql: '?', bindings: [v] });
const column = (name: string): Sql => ({ sql: 'x.' + name, bindings: [] });

async function runParts(db: Knex, parts: readonly Sql[]): Promise<RawRow[]> {
  const result = (await db.raw(
    parts.map((p) => p.sql).join(' UNION ALL '),
    parts.flatMap((p) => p.bindings) as Knex.RawBinding[],
  )) as unknown;
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as RawRow[];
}

/** The part that counts a type's matches, with its change number read in the same statement. */
function countPart(db: Knex, { code, matches }: Searched): Sql {
  return part(
    ROLE.counted,
    { kind: value(code), n: { sql: 'COUNT(*)', bindings: [] }, changes: changeNumberSql(code) },
    sqlOf(db.from(matches.subquery.clone().as('m')).select('m.recordId')),
  );
}

/**
 * The part that reads a type's page of newest matches. Bounded, it checks only the newest few candidates (a common
 * term has thousands): `one.cut` is then set when there were more, so a short page is read again in full.
 */
function rowsPart(db: Knex, one: Searched, limit: number, bounded: boolean): Sql {
  const newest = newestMatches(one.matches, limit, bounded ? limit * CANDIDATES_PER_ROW : undefined);
  one.cut = !newest.complete;
  return part(
    ROLE.row,
    { kind: value(one.code), id: column('id'), a: column('a'), b: column('b'), c: column('c'), d: column('d') },
    sqlOf(PRESENTATIONS[one.type].rows(db, newest.subquery)),
  );
}

/** Newest candidates checked per row of a group's page: most candidates of a term's rarest grams contain it. */
const CANDIDATES_PER_ROW = 8;

/**
 * The parts of a type's matches: its page of rows, and its total counted or (`mayRemember`: a first statement)
 * checked; a first statement reads the page from the newest candidates only.
 */
function matchParts(db: Knex, one: Searched, limit: number, mayRemember: boolean): Sql[] {
  const remembered = mayRemember && rememberedTotal(db, one.code, one.matches);
  return [
    rowsPart(db, one, limit, mayRemember),
    remembered ? part(ROLE.rememberedTotal, { kind: value(one.code), changes: changeNumberSql(one.code) }) : countPart(db, one),
  ];
}

/**
 * GET /api/search: the newest few matches of every record type and of contacts, with each group's total. The same
 * substring semantics as the lists (their matcher, on the search index), in one statement for every type after the
 * grams' posting counts, which are remembered (a gram without postings with the change number it was counted at):
 * per type, its page of matches joined to the palette columns of their rows, and its total, counted or, while the
 * type's documents have not changed, remembered; a type remembered without a match reads just its change number. A
 * type changed since then is searched again in a second statement (rare). A search so holds one pooled connection at
 * a time, so many palettes typing at once queue fairly.
 */
export async function globalSearch(ctx: AppContext, input: Record<string, string>): Promise<SearchResults> {
  const { q, limit } = parseInput(SearchQuerySchema, input);
  const db = ctx.db;
  const found = await matchingIdsOfKinds(db, TYPES.map(codeOf), q, undefined, { remembered: true });
  const searched: Searched[] = [];
  const noneUnlessChanged = new Map<number, number>();
  TYPES.forEach((type, i) => {
    const one = found[i];
    if (one && 'noneUnlessChanged' in one) noneUnlessChanged.set(codeOf(type), one.noneUnlessChanged);
    else if (one) searched.push({ type, code: codeOf(type), matches: one });
  });
  const rowsByType = new Map<SearchType, RawRow[]>();
  const totals = new Map<SearchType, number>();
  const searchedOf = (code: number) => searched.find((s) => s.code === code)!;
  const recount: Searched[] = [];
  const changedSinceNone: number[] = [];
  // Types whose candidates were read at another change number than the statement's: searched again.
  const stale = new Set<Searched>();
  // Checked in the first statement only: the second answers with what it read, as a list does.
  let firstStatement = true;
  const candidatesStale = (one: Searched, changes: number) =>
    firstStatement && one.matches.candidatesAt !== undefined && one.matches.candidatesAt !== changes;
  const absorb = (rows: RawRow[]) => {
    for (const row of rows) {
      const code = Number(row.kind);
      const changes = Number(row.changes);
      switch (Number(row.role)) {
        case ROLE.row: {
          const { type } = searchedOf(code);
          rowsByType.set(type, [...(rowsByType.get(type) ?? []), row]);
          break;
        }
        case ROLE.counted: {
          const one = searchedOf(code);
          if (candidatesStale(one, changes)) {
            stale.add(one);
            break;
          }
          totals.set(one.type, Number(row.n));
          rememberTotal(db, one.code, one.matches, changes, Number(row.n));
          break;
        }
        case ROLE.rememberedTotal: {
          const one = searchedOf(code);
          if (candidatesStale(one, changes)) {
            stale.add(one);
            break;
          }
          const remembered = rememberedTotal(db, one.code, one.matches);
          if (remembered && remembered.changes === changes) totals.set(one.type, remembered.total);
          else recount.push(one);
          break;
        }
        case ROLE.rememberedNone:
          if (noneUnlessChanged.get(code) !== changes) changedSinceNone.push(code);
          break;
      }
    }
  };
  const parts = [
    ...searched.flatMap((one) => matchParts(db, one, limit, true)),
    ...[...noneUnlessChanged.keys()].map((code) => part(ROLE.rememberedNone, { kind: value(code), changes: changeNumberSql(code) })),
  ];
  if (parts.length > 0) absorb(await runParts(db, parts));
  firstStatement = false;

  // Rare, after a write: a type whose documents changed since its total, or its lack of matches, was remembered.
  const again = recount.map((one) => countPart(db, one));
  // Rare too: a page short of its limit read from only the newest candidates, which may have missed older matches.
  for (const one of searched) {
    if (stale.has(one) || !one.cut || (rowsByType.get(one.type)?.length ?? 0) >= limit) continue;
    rowsByType.delete(one.type);
    again.push(rowsPart(db, one, limit, false));
  }
  // After a write too: candidates read before it (remembered, or just before the statement) are read again.
  for (const one of stale) {
    rowsByType.delete(one.type);
    searched.splice(searched.indexOf(one), 1);
    changedSinceNone.push(one.code);
  }
  if (changedSinceNone.length > 0) {
    const fresh = await matchingIdsOfKinds(db, changedSinceNone, q);
    changedSinceNone.forEach((code, i) => {
      const matches = fresh[i];
      if (!matches) return;
      const one: Searched = { type: TYPES.find((type) => codeOf(type) === code)!, code, matches };
      searched.push(one);
      again.push(...matchParts(db, one, limit, false));
    });
  }
  if (again.length > 0) absorb(await runParts(db, again));

  const groups: SearchGroup[] = TYPES.map((type) => {
    const items = (rowsByType.get(type) ?? [])
      .map((row) => ({ id: Number(row.id), ...PRESENTATIONS[type].present(row), url: urlOf(type, Number(row.id)) }))
      .sort((x, y) => y.id - x.id);
    return { type, total: totals.get(type) ?? 0, items };
  });
  return { groups };
}
