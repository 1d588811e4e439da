import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import type { Stats } from '@shared/schemas/records.js';
import type { AppContext } from '../context.js';
import { definitionOf } from '../records/definitions.js';
import { countOf, readCounts } from '../records/queries.js';

/** The codes the six types' counts are kept under. */
export const STATS_CODES = RECORD_TYPES.map((type) => definitionOf(type).code);

/** The six counts out of the kept totals (per type code, per bucket). */
export function statsOfCounts(counts: ReadonlyMap<number, Map<string, number>>): Stats {
  return Object.fromEntries(
    RECORD_TYPES.map((type) => [RECORD_TYPE_INFO[type].statsKey, countOf(counts.get(definitionOf(type).code))]),
  ) as Stats;
}

/** The dashboard counts, read from the totals the records service maintains (one indexed read, no table scans). */
export async function getStats(ctx: AppContext): Promise<Stats> {
  return statsOfCounts(await readCounts(ctx.db, STATS_CODES));
}
