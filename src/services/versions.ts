import type { Knex } from 'knex';
import { decodeTimestamp } from '@db/codecs.js';
import { EDIT_CONFLICT } from '@shared/api-error.js';
import { AppError, badRequest } from './errors.js';

/**
 * No silent lost updates (issue 13): an edit may carry the `version` it was loaded from (the `updatedAt` it read).
 * A save against a newer version is refused with 409, naming who changed it and when; a caller that sends no
 * version keeps today's behaviour (the save wins).
 */
export function takeVersion(input: unknown): { version: string | undefined; body: unknown } {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || !('version' in input))
    return { version: undefined, body: input };
  const { version, ...body } = input as Record<string, unknown>;
  if (version === undefined || version === null || version === '') return { version: undefined, body };
  if (typeof version !== 'string' || Number.isNaN(Date.parse(version)))
    throw badRequest('version must be the updatedAt the form was loaded with', [{ path: 'version', message: 'Expected a timestamp' }]);
  return { version, body };
}

/** Throws the 409 when the stored row is newer than the version the edit was loaded from. */
export async function assertVersion(
  trx: Knex.Transaction,
  subject: { entityType: string; entityId: number; noun: string },
  storedUpdatedAt: string,
  version: string | undefined,
): Promise<void> {
  if (version === undefined || Date.parse(version) === Date.parse(storedUpdatedAt)) return;
  const last = (await trx('history')
    .where({ entityType: subject.entityType, entityId: subject.entityId })
    .orderBy('id', 'desc')
    .first('actorLabel', 'actorKind', 'at')) as { actorLabel: string; actorKind: string; at: unknown } | undefined;
  const who = !last ? 'someone else' : last.actorKind === 'import' ? 'an import' : last.actorKind === 'sync' ? 'the sync' : last.actorLabel;
  const when = last ? decodeTimestamp(last.at)! : storedUpdatedAt;
  throw new AppError(
    409,
    EDIT_CONFLICT,
    `This ${subject.noun} was changed by ${who} at ${when} after you opened it. Reload to see their change, or save again to overwrite it.`,
  );
}
