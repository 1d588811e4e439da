import type { Stats } from '../../shared/schemas/records.js';
import type { AppContext } from '../context.js';
import { definitionOf } from '../records/definitions.js';
import { countOf, readCounts } from '../records/queries.js';

export type { Stats };

const kinds = {
  events: 'event',
  professionals: 'professional',
  runClubs: 'runclub',
  brands: 'brand',
  media: 'media',
  influencers: 'influencer',
} as const satisfies Record<keyof Stats, string>;

/** The dashboard counts, read from the totals the records service maintains (one indexed read, no table scans). */
export async function getStats(ctx: AppContext): Promise<Stats> {
  const codes = Object.values(kinds).map((kind) => definitionOf(kind).code);
  const counts = await readCounts(ctx.db, codes);
  return Object.fromEntries(Object.entries(kinds).map(([key, kind]) => [key, countOf(counts.get(definitionOf(kind).code))])) as unknown as Stats;
}
