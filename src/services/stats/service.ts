import { RECORD_TYPE_INFO, RECORD_TYPES } from '@shared/record-types.js';
import type { Stats } from '@shared/schemas/records.js';
import type { AppContext } from '../context.js';
import { definitionOf } from '../records/definitions.js';
import { countOf, readCounts } from '../records/queries.js';

/** The dashboard counts, read from the totals the records service maintains (one indexed read, no table scans). */
export async function getStats(ctx: AppContext): Promise<Stats> {
  const counts = await readCounts(
    ctx.db,
    RECORD_TYPES.map((type) => definitionOf(type).code),
  );
  return Object.fromEntries(
    RECORD_TYPES.map((type) => [RECORD_TYPE_INFO[type].statsKey, countOf(counts.get(definitionOf(type).code))]),
  ) as Stats;
}
