import { createHash } from 'node:crypto';
import { encodeTimestamp } from '@db/codecs.js';
import { resolveMapping, type ColumnMapping, type GeneralImportType } from '@shared/imports/general.js';
import type { Actor, AppContext } from '@services/context.js';

/**
 * Saved mappings of the general import (docs/decisions/0107-general-import.md): the mapping of the last real import
 * of a file with these headers, per type, offered again by the mapping step. Headers are compared trimmed and
 * lower-cased, so "Email" and "email " find the same saved mapping.
 */

const TABLE = 'import_mappings';

const normalised = (column: string) => column.trim().toLowerCase();

function headerHash(header: readonly string[]): string {
  return createHash('sha256')
    .update(JSON.stringify(header.map(normalised)))
    .digest('hex');
}

/** Keeps `mapping` as the one for `header` of `type`, replacing an earlier one. */
export async function saveImportMapping(
  ctx: AppContext,
  actor: Actor,
  type: GeneralImportType,
  header: readonly string[],
  mapping: ColumnMapping,
): Promise<void> {
  const row = {
    type,
    headerHash: headerHash(header),
    mapping: JSON.stringify(mapping),
    savedBy: actor.userId,
    savedAt: encodeTimestamp(ctx.clock.now()),
  };
  await ctx.db(TABLE).insert(row).onConflict(['type', 'headerHash']).merge(['mapping', 'savedBy', 'savedAt']);
}

/**
 * The saved mapping for `header` of `type`, its columns spelled as this file spells them; null when none is saved,
 * or when the saved one no longer fits (a field renamed since).
 */
export async function savedImportMapping(
  ctx: AppContext,
  type: GeneralImportType,
  header: readonly string[],
): Promise<ColumnMapping | null> {
  const row = (await ctx
    .db(TABLE)
    .where({ type, headerHash: headerHash(header) })
    .first('mapping')) as { mapping: string } | undefined;
  if (!row) return null;
  let stored: unknown;
  try {
    stored = JSON.parse(row.mapping);
  } catch {
    return null;
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return null;
  const byColumn = new Map(Object.entries(stored as Record<string, unknown>).map(([column, field]) => [normalised(column), field]));
  const given = Object.fromEntries(header.map((column) => [column, byColumn.get(normalised(column)) ?? null]));
  const resolved = resolveMapping(type, header, given);
  return resolved.ok ? resolved.mapping : null;
}
