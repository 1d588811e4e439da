import { createHash, randomBytes } from 'node:crypto';
import { withTransaction } from '@db/transaction.js';
import { API_TOKEN_PREFIX, ApiTokenInputSchema, type ApiToken, type CreatedApiToken } from '@shared/schemas/api-tokens.js';
import type { Role } from '@shared/roles.js';
import { recordActivityEvents } from '../activity/log.js';
import { actorOfToken, type Actor, type AppContext } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { requireRole } from '../roles.js';
import { parseInput } from '../validate.js';
import {
  findApiTokenByHash,
  findApiTokenById,
  insertApiToken,
  listApiTokenRows,
  markApiTokenRevoked,
  markApiTokenUsed,
  type ApiTokenRow,
} from './queries.js';

/** 32 random bytes: 256 bits, so the SHA-256 of a token is all that needs keeping (no salt or slow hash). */
const TOKEN_BYTES = 32;
const DAY_MS = 86_400_000;
/** The last use is written at most this often per token (and whenever the address changes). */
const LAST_USE_EVERY_MS = 60_000;
/** A use after this long without any is logged again (see startsUse). */
const LOGGED_USE_IDLE_MS = 3_600_000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** What a request made with a token acts as. */
export interface TokenIdentity {
  id: number;
  name: string;
  role: Role;
}

function statusOf(row: ApiTokenRow, now: Date): ApiToken['status'] {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && Date.parse(row.expiresAt) <= now.getTime()) return 'expired';
  return 'active';
}

/** Makes a token; the answer is the only time its secret is seen (only its hash is stored). Admins only. */
export async function createApiToken(ctx: AppContext, actor: Actor, input: unknown): Promise<CreatedApiToken> {
  requireRole(actor, 'admin');
  const { name, role, expiresInDays } = parseInput(ApiTokenInputSchema, input);
  const token = API_TOKEN_PREFIX + randomBytes(TOKEN_BYTES).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = expiresInDays ? new Date(now.getTime() + expiresInDays * DAY_MS) : null;
  const id = await withTransaction(ctx, (trx) =>
    insertApiToken(trx, { name, tokenHash: hashOf(token), role, createdAt: now, createdBy: actor.userId, expiresAt }),
  );
  ctx.log.info({ event: 'api_token_created', tokenId: id, tokenName: name, role }, 'API token created');
  return { id, name, role, token, expiresAt: expiresAt?.toISOString() ?? null };
}

/** Every token, newest first, with its last use. Admins only. */
export async function listApiTokens(ctx: AppContext, actor: Actor): Promise<ApiToken[]> {
  requireRole(actor, 'admin');
  const now = ctx.clock.now();
  return (await listApiTokenRows(ctx.db)).map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    status: statusOf(row, now),
    createdAt: row.createdAt,
    createdBy: row.createdBy === null ? null : `${row.creatorFirstName ?? ''} ${row.creatorLastName ?? ''}`.trim() || row.creatorEmail,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    lastUsedIp: row.lastUsedIp,
  }));
}

/** Stops a token working at once. Revoking a revoked token changes nothing. Admins only. */
export async function revokeApiToken(ctx: AppContext, actor: Actor, idText: string | number): Promise<void> {
  requireRole(actor, 'admin');
  const id = Number(idText);
  if (!Number.isInteger(id) || id < 1) throw notFound('API token not found');
  await withTransaction(ctx, async (trx) => {
    const row = await findApiTokenById(trx, id);
    if (!row) throw notFound('API token not found');
    await markApiTokenRevoked(trx, id, ctx.clock.now());
  });
  ctx.log.info({ event: 'api_token_revoked', tokenId: id }, 'API token revoked');
}

const refused = (message: string) => new AppError(401, 'unauthorized', message, undefined, { 'WWW-Authenticate': 'Bearer' });

/**
 * Whether a use starts a new stretch of use that the activity log keeps: the token's first use, a new address, the
 * first use of a day (UTC) or after an hour without any. A script that calls every second logs one line a day, not
 * 86,400, and an auditor still sees each address and each time a token woke up.
 */
function startsUse(row: ApiTokenRow, now: Date, ip: string): boolean {
  if (!row.lastUsedAt || row.lastUsedIp !== ip) return true;
  const last = new Date(row.lastUsedAt);
  return now.getTime() - last.getTime() >= LOGGED_USE_IDLE_MS || now.toISOString().slice(0, 10) !== last.toISOString().slice(0, 10);
}

/**
 * Who a bearer token acts as: refused (401) when it is unknown, revoked or expired. Records its last use (time and
 * address) at most once a minute, so a busy script costs one read per request, not a write; a use that starts a
 * stretch of use (above) is also written to the activity log, naming the request (`GET /api/events`).
 */
export async function authenticateApiToken(ctx: AppContext, token: string, ip: string, request: string): Promise<TokenIdentity> {
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) throw refused('Unknown API token');
  const row = await findApiTokenByHash(ctx.db, hashOf(token));
  if (!row) throw refused('Unknown API token');
  const now = ctx.clock.now();
  const status = statusOf(row, now);
  if (status === 'revoked') throw refused('This API token was revoked');
  if (status === 'expired') throw refused('This API token has expired');
  const lastUsed = row.lastUsedAt ? Date.parse(row.lastUsedAt) : 0;
  const identity = { id: row.id, name: row.name, role: row.role };
  if (now.getTime() - lastUsed >= LAST_USE_EVERY_MS || row.lastUsedIp !== ip) {
    if (startsUse(row, now, ip))
      await recordActivityEvents(ctx.db, ctx, actorOfToken(identity), [
        { kind: 'token', summary: `API token "${row.name}" used from ${ip}: ${request}` },
      ]);
    await markApiTokenUsed(ctx.db, row.id, now, ip);
  }
  return identity;
}
