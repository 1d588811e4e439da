import { CONTACT_OWNER_TYPES } from '@shared/record-types.js';
import { importKeysOf, mappableFields, suggestMapping, type GeneralImportType, type ImportPreview } from '@shared/imports/general.js';
import type { Actor, AppContext } from '@services/context.js';
import { badRequest } from '@services/errors.js';
import { requireRole } from '@services/roles.js';
import { savedImportMapping } from './mappings.js';
import type { TableSource } from './read.js';

/** Sample values shown per column in the mapping step. */
const SAMPLES = 3;

/**
 * What the mapping step of /imports/new shows for a file (docs/decisions/0107-general-import.md): its header, how
 * many rows it has, a few values of each column, the suggested and the saved mapping, the fields and the keys.
 * Reads the whole file (to count its rows) with the import's own reader, so a file it cannot read fails here.
 */
export async function previewGeneralImport(
  ctx: AppContext,
  actor: Actor,
  source: TableSource,
  type: GeneralImportType,
  ownerType?: string,
): Promise<ImportPreview> {
  requireRole(actor, 'staff');
  if (ownerType !== undefined) {
    if (type !== 'contact') throw badRequest('An owner type is for contacts');
    if (!(CONTACT_OWNER_TYPES as readonly string[]).includes(ownerType))
      throw badRequest(`Owner type must be one of ${CONTACT_OWNER_TYPES.join(', ')}`);
  }
  const { header } = source;
  const samples: Record<string, string[]> = Object.fromEntries(header.map((column) => [column, []]));
  let wanted = header.length;
  let rowCount = 0;
  for await (const chunk of source.rows) {
    rowCount += chunk.length;
    if (wanted === 0) continue;
    for (const { cells } of chunk)
      header.forEach((column, index) => {
        const value = (cells[index] ?? '').trim();
        const list = samples[column]!;
        if (value === '' || list.length >= SAMPLES || header.indexOf(column) !== index) return;
        list.push(value);
        if (list.length === SAMPLES) wanted--;
      });
  }
  return {
    header,
    rowCount,
    samples,
    suggested: suggestMapping(type, header),
    saved: await savedImportMapping(ctx, type, header),
    fields: mappableFields(type).map(({ name, label, required }) => ({ name, label, required })),
    keys: importKeysOf(type),
  };
}
