import { readListQuery } from '@shared/list-query.js';
import type { ListQuery } from '@shared/schemas/records.js';
import { type RecordType } from '@shared/record-types.js';

/** A list query as the /api route would parse it from these URL parameters (tests of the records service). */
export function listQuery<K extends RecordType>(kind: K, params: Record<string, string> = {}): ListQuery<K> {
  const read = readListQuery(kind, new URLSearchParams(params), 'api');
  if (!read.ok) throw new Error(read.message);
  return read.query;
}
