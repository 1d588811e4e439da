import type { Knex } from 'knex';
import { decodeRow, decodeRows, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { Role } from '@shared/roles.js';

export interface ApiTokenRow {
  id: number;
  name: string;
  role: Role;
  createdAt: string;
  createdBy: number | null;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  lastUsedIp: string | null;
}

/** A row of the list, with the name of the admin who made it. */
export interface ApiTokenListRow extends ApiTokenRow {
  creatorFirstName: string | null;
  creatorLastName: string | null;
  creatorEmail: string | null;
}

const COLUMNS = ['id', 'name', 'role', 'createdAt', 'createdBy', 'expiresAt', 'revokedAt', 'lastUsedAt', 'lastUsedIp'] as const;

export async function insertApiToken(
  trx: Knex.Transaction,
  token: { name: string; tokenHash: string; role: Role; createdAt: Date; createdBy: number | null; expiresAt: Date | null },
): Promise<number> {
  const [id] = await trx('api_tokens').insert({
    name: token.name,
    tokenHash: token.tokenHash,
    role: token.role,
    createdAt: encodeTimestamp(token.createdAt),
    createdBy: token.createdBy,
    expiresAt: encodeTimestamp(token.expiresAt),
  });
  return Number(id);
}

/** The per-request read: the token by its hash (a unique index). */
export async function findApiTokenByHash(db: Knex, tokenHash: string): Promise<ApiTokenRow | undefined> {
  const row = (await db('api_tokens').where({ tokenHash }).first(COLUMNS)) as Record<string, unknown> | undefined;
  return row ? decodeRow<ApiTokenRow>(columnKinds.api_tokens, row) : undefined;
}

export async function findApiTokenById(db: Knex, id: number): Promise<ApiTokenRow | undefined> {
  const row = (await db('api_tokens').where({ id }).first(COLUMNS)) as Record<string, unknown> | undefined;
  return row ? decodeRow<ApiTokenRow>(columnKinds.api_tokens, row) : undefined;
}

/** Every token, newest first (an organisation has a handful). */
export async function listApiTokenRows(db: Knex): Promise<ApiTokenListRow[]> {
  const rows = (await db('api_tokens as t')
    .leftJoin('users as u', 'u.id', 't.createdBy')
    .select(
      ...COLUMNS.map((column) => `t.${column}`),
      'u.firstName as creatorFirstName',
      'u.lastName as creatorLastName',
      'u.email as creatorEmail',
    )
    .orderBy('t.id', 'desc')) as Array<Record<string, unknown>>;
  return decodeRows<ApiTokenListRow>(columnKinds.api_tokens, rows);
}

export async function markApiTokenRevoked(trx: Knex.Transaction, id: number, at: Date): Promise<void> {
  await trx('api_tokens')
    .where({ id })
    .whereNull('revokedAt')
    .update({ revokedAt: encodeTimestamp(at) });
}

export async function markApiTokenUsed(db: Knex, id: number, at: Date, ip: string): Promise<void> {
  await db('api_tokens')
    .where({ id })
    .update({ lastUsedAt: encodeTimestamp(at), lastUsedIp: ip.slice(0, 64) });
}
