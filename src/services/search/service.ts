import { readListQuery } from '@shared/list-query.js';
import { RECORD_TYPES, recordPagePath, type RecordType } from '@shared/record-types.js';
import type { RecordItem } from '@shared/schemas/records.js';
import { SearchQuerySchema, type SearchGroup, type SearchItem, type SearchResults } from '@shared/schemas/search.js';
import { listDirectory } from '../contacts/directory.js';
import type { AppContext } from '../context.js';
import { parseInput } from '../validate.js';
import { listRecords } from '../records/service.js';

const line = (...parts: Array<string | null | undefined>) => parts.filter(Boolean).join(' · ');

/** How each record type reads in the palette. */
const present: { [K in RecordType]: (item: RecordItem<K>) => Omit<SearchItem, 'id' | 'url'> } = {
  event: (e) => ({ title: e.eventName, subtitle: line(e.eventStartDate, e.locationState) }),
  professional: (p) => ({ title: p.businessName, subtitle: line(p.professionType, p.locationState) }),
  runclub: (c) => ({ title: c.clubName, subtitle: line(c.locationState) }),
  brand: (b) => ({ title: b.brandName, subtitle: line(b.industryCategory) }),
  media: (m) => ({ title: m.mediaName, subtitle: line(m.industry) }),
  influencer: (i) => ({
    title: `${i.firstName} ${i.lastName}`,
    subtitle: line(i.instagramHandle && `@${i.instagramHandle}`, i.influencerType),
  }),
};

async function recordGroup<K extends RecordType>(ctx: AppContext, type: K, q: string, limit: number): Promise<SearchGroup> {
  // The list's own query and search: the same substring semantics, through the search index.
  const read = readListQuery(type, new URLSearchParams({ q, limit: String(limit) }), 'api');
  if (!read.ok) return { type, total: 0, items: [] };
  const page = await listRecords(ctx, type, read.query);
  return {
    type,
    total: page.total,
    items: page.items.map((item) => ({ id: item.id, url: recordPagePath(type, item.id), ...present[type](item) })),
  };
}

/** GET /api/search: the newest few matches of every record type and of contacts, with each group's total. */
export async function globalSearch(ctx: AppContext, input: Record<string, string>): Promise<SearchResults> {
  const { q, limit } = parseInput(SearchQuerySchema, input);
  // One group after another: a search holds at most one list's queries on the pool at a time, so many palettes
  // typing at once queue fairly instead of each taking a dozen connections.
  const records: SearchGroup[] = [];
  for (const type of RECORD_TYPES) records.push(await recordGroup(ctx, type, q, limit));
  const contacts = await listDirectory(ctx, { q, limit: String(limit) });
  return {
    groups: [
      ...records,
      {
        type: 'contact',
        total: contacts.total,
        items: contacts.items.map((c) => ({
          id: c.id,
          title: `${c.firstName} ${c.lastName}`,
          subtitle: line(c.email, `Contact of ${c.owner.name}`),
          url: `/contacts/${c.id}`,
        })),
      },
    ],
  };
}
