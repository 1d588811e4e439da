import type { Knex } from 'knex';
import type { RecordType } from '../attachments/owner-types.js';

/**
 * Called by every writer of record rows outside the records service (CSV imports, WordPress sync) after it
 * inserted or updated records, inside its own transaction, so derived data the records service keeps for
 * fast lists and search (see the records ADR) stays in step.
 */
export async function recordsChanged(_db: Knex | Knex.Transaction, _type: RecordType, _ids: readonly number[]): Promise<void> {
  // The records service fills this in when it keeps derived data.
}
