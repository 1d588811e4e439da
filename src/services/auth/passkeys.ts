import { randomBytes } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Knex } from 'knex';
import type * as z from 'zod';
import { decodeRow, decodeRows, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import { withTransaction } from '@db/transaction.js';
import {
  PasskeyAssertionSchema,
  PasskeyNameSchema,
  PasskeyRegistrationSchema,
  PasskeySignInSchema,
  type PasskeyView,
  type PublicUser,
} from '@shared/schemas/auth.js';
import type { AppContext } from '../context.js';
import { AppError, conflict, notFound, tooManyRequests } from '../errors.js';
import { findUserById, updateUser } from '../users/queries.js';
import { presentUser } from '../users/service.js';
import { parseInput } from '../validate.js';
import type { LoginThrottle } from './login-throttle.js';
import { hasSecondFactor, requiresTwoFactor } from './security-settings.js';
import type { SessionClient } from './sessions.js';
import { noticeNewBrowser, recordSignInEvent } from './sign-in-events.js';

/**
 * Passkeys (docs/decisions/0104): WebAuthn credentials kept as rows of user_second_factors (kind 'passkey'). One
 * signs in on its own (usernameless: the browser offers the site's passkeys, the credential says whose it is, and
 * user verification is required, so it is two factors in one), or stands in for the authenticator code after the
 * password. Each challenge is a row of webauthn_challenges: used once (one conditional DELETE) and within minutes.
 * The relying party is the site's address (APP_URL): without it passkeys are off.
 */

const RP_NAME = 'Pacer CRM';
/** Loaded when a passkey is first used: its certificate parsers would cost every start of the server and the CLI. */
const webauthn = () => import('@simplewebauthn/server');
const CHALLENGE_TTL_MS = 5 * 60_000;
const MAX_PASSKEYS = 20;
type ChallengePurpose = 'register' | 'sign_in';

interface PasskeyRow {
  id: number;
  userId: number;
  name: string | null;
  credentialId: string;
  publicKey: string;
  signCount: number | null;
  transports: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

interface RelyingParty {
  rpID: string;
  origin: string;
}

/** The relying party: the host and origin of the site's public address, or undefined when it is not configured. */
export function relyingParty(ctx: Pick<AppContext, 'config'>): RelyingParty | undefined {
  if (!ctx.config.appUrl) return undefined;
  const url = new URL(ctx.config.appUrl);
  return { rpID: url.hostname, origin: url.origin };
}

function requireRelyingParty(ctx: AppContext): RelyingParty {
  const rp = relyingParty(ctx);
  if (!rp) throw new AppError(409, 'passkeys_unavailable', 'Passkeys need the site’s address: an admin must set APP_URL.');
  return rp;
}

/** Stores a challenge for one use within CHALLENGE_TTL_MS; expired ones are dropped on the way. */
async function storeChallenge(ctx: AppContext, challenge: string, purpose: ChallengePurpose, userId: number | null) {
  const now = ctx.clock.now();
  await ctx.db('webauthn_challenges').where('expiresAt', '<', encodeTimestamp(now)).delete();
  await ctx.db('webauthn_challenges').insert({
    challenge,
    purpose,
    userId,
    expiresAt: encodeTimestamp(new Date(now.getTime() + CHALLENGE_TTL_MS)),
  });
}

/** The challenge a browser signed, read from its client data (checked again by the library against what we stored). */
function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 128 ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Uses up the challenge the response signed, when it is ours, unexpired, for this purpose (and user): one DELETE
 * that only one request can win, so a response is never accepted twice.
 */
async function consumeChallenge(
  ctx: AppContext,
  clientDataJSON: string,
  purpose: ChallengePurpose,
  userId: number | null,
): Promise<string | undefined> {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge) return undefined;
  const query = ctx.db('webauthn_challenges').where({ challenge, purpose }).where('expiresAt', '>=', encodeTimestamp(ctx.clock.now()));
  if (userId !== null) query.where({ userId });
  return (await query.delete()) === 1 ? challenge : undefined;
}

async function passkeyRows(db: Knex, userId: number): Promise<PasskeyRow[]> {
  return decodeRows<PasskeyRow>(
    columnKinds.user_second_factors,
    await db('user_second_factors').where({ userId, kind: 'passkey' }).orderBy('id', 'asc'),
  );
}

const present = (row: PasskeyRow): PasskeyView => ({
  id: row.id,
  name: row.name ?? 'Passkey',
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
});

/** GET /api/me/passkeys: my passkeys, oldest first. */
export async function listMyPasskeys(ctx: AppContext, userId: number): Promise<PasskeyView[]> {
  return (await passkeyRows(ctx.db, userId)).map(present);
}

/** POST /api/me/passkeys/options: what the browser needs to make a passkey for me (not one I already have). */
export async function passkeyRegistrationOptions(ctx: AppContext, userId: number): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { rpID } = requireRelyingParty(ctx);
  const user = await findUserById(ctx.db, userId);
  if (!user) throw notFound('User not found');
  const existing = await passkeyRows(ctx.db, userId);
  if (existing.length >= MAX_PASSKEYS) throw conflict(`You have ${MAX_PASSKEYS} passkeys, the most an account may have. Remove one first.`);
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim(),
    // The user handle: our id, so an assertion names its user without the email (not secret, never reused).
    userID: new TextEncoder().encode(`pacer-user-${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: splitTransports(row.transports) })),
    // Discoverable (the sign-in page asks for no email) and verified (a PIN or biometric: two factors in one).
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_TTL_MS,
  });
  await storeChallenge(ctx, options.challenge, 'register', userId);
  return options;
}

const splitTransports = (value: string | null) => (value ? value.split(',') : undefined);

const refused = (message: string) => new AppError(400, 'passkey_refused', message);

/**
 * POST /api/me/passkeys {name, response}: the browser's new credential, checked against the challenge we gave this
 * user, stored under its name. A passkey is a second factor as soon as it is added (sessions held for set-up are freed).
 */
export async function registerPasskey(ctx: AppContext, userId: number, client: SessionClient, input: unknown): Promise<PasskeyView> {
  const { origin, rpID } = requireRelyingParty(ctx);
  const { name, response } = parseInput(PasskeyRegistrationSchema, input);
  const challenge = await consumeChallenge(ctx, response.response.clientDataJSON, 'register', userId);
  if (!challenge) throw refused('The passkey request expired or was already used. Try adding the passkey again.');
  let verification;
  try {
    verification = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch (error) {
    ctx.log.warn({ err: error, userId }, 'passkey registration refused');
    throw refused('The passkey could not be checked. Try again, or use another authenticator.');
  }
  if (!verification.verified) throw refused('The passkey could not be checked. Try again, or use another authenticator.');
  const { credential } = verification.registrationInfo;
  const now = encodeTimestamp(ctx.clock.now());
  const id = await withTransaction(ctx, async (trx) => {
    if (await trx('user_second_factors').where({ credentialId: credential.id }).first('id'))
      throw conflict('This passkey is already registered.');
    const [inserted] = await trx('user_second_factors').insert({
      userId,
      kind: 'passkey',
      name,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: credential.counter,
      transports: credential.transports?.join(',').slice(0, 200) ?? null,
      createdAt: now,
      confirmedAt: now,
    });
    await trx('sessions').where({ userId }).update({ secondFactorSetupRequired: 0 });
    await recordSignInEvent(trx, ctx, client, { kind: 'passkey_added', succeeded: true, userId, detail: name.slice(0, 100) });
    return Number(inserted);
  });
  ctx.log.info({ event: 'passkey_added', userId }, 'passkey added');
  const row = (await passkeyRows(ctx.db, userId)).find((r) => r.id === id);
  return present(row!);
}

async function ownPasskey(db: Knex, userId: number, id: number): Promise<PasskeyRow> {
  const row = (await db('user_second_factors').where({ id, userId, kind: 'passkey' }).first()) as Record<string, unknown> | undefined;
  if (!row) throw notFound('Passkey not found');
  return decodeRow<PasskeyRow>(columnKinds.user_second_factors, row);
}

/** PATCH /api/me/passkeys/:id {name}. */
export async function renamePasskey(ctx: AppContext, userId: number, id: number, input: unknown): Promise<PasskeyView> {
  const { name } = parseInput(PasskeyNameSchema, input);
  await ownPasskey(ctx.db, userId, id);
  await ctx.db('user_second_factors').where({ id, userId, kind: 'passkey' }).update({ name });
  return present(await ownPasskey(ctx.db, userId, id));
}

/** DELETE /api/me/passkeys/:id. Without any second factor left where one is required, the sessions are held again. */
export async function removePasskey(ctx: AppContext, userId: number, id: number, client: SessionClient): Promise<void> {
  await withTransaction(ctx, async (trx) => {
    const row = await ownPasskey(trx, userId, id);
    await trx('user_second_factors').where({ id: row.id }).delete();
    if (!(await hasSecondFactor(trx, userId))) {
      // Recovery codes stand in for a second factor; with none left they would stand in for nothing.
      await trx('user_recovery_codes').where({ userId }).delete();
      if (await requiresTwoFactor(trx)) await trx('sessions').where({ userId }).update({ secondFactorSetupRequired: 1 });
    }
    await recordSignInEvent(trx, ctx, client, { kind: 'passkey_removed', succeeded: true, userId, detail: (row.name ?? '').slice(0, 100) });
  });
  ctx.log.info({ event: 'passkey_removed', userId }, 'passkey removed');
}

/**
 * POST /api/login/passkey/options: a challenge for any of the site's passkeys (no email asked, so nothing tells
 * which addresses have one). Also used for a passkey as the second factor after the password.
 */
export async function passkeySignInOptions(ctx: AppContext): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { rpID } = requireRelyingParty(ctx);
  const options = await (
    await webauthn()
  ).generateAuthenticationOptions({
    rpID,
    userVerification: 'required',
    timeout: CHALLENGE_TTL_MS,
    challenge: randomBytes(32),
  });
  await storeChallenge(ctx, options.challenge, 'sign_in', null);
  return options;
}

type Assertion = z.infer<typeof PasskeyAssertionSchema>;

/** The passkey row an assertion names (any user), or undefined. */
async function passkeyByCredentialId(db: Knex, credentialId: string): Promise<PasskeyRow | undefined> {
  const row = (await db('user_second_factors').where({ credentialId, kind: 'passkey' }).first()) as Record<string, unknown> | undefined;
  return row ? decodeRow<PasskeyRow>(columnKinds.user_second_factors, row) : undefined;
}

/**
 * Checks an assertion: our unexpired challenge (used up here), a passkey of `userId` when given, the signature with
 * user verification, and the signature counter (a counter that goes back means a cloned authenticator: refused by
 * the library). Moves the counter forward. Answers the passkey, or undefined when any of it fails.
 */
export async function verifyPasskeyAssertion(
  ctx: AppContext,
  assertion: Assertion,
  userId: number | null,
): Promise<PasskeyRow | undefined> {
  const rp = relyingParty(ctx);
  if (!rp) return undefined;
  const row = await passkeyByCredentialId(ctx.db, assertion.id);
  const challenge = await consumeChallenge(ctx, assertion.response.clientDataJSON, 'sign_in', null);
  if (!row || !challenge || (userId !== null && row.userId !== userId)) return undefined;
  try {
    const { verified, authenticationInfo } = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response: assertion as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: true,
      credential: {
        id: row.credentialId,
        publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
        counter: row.signCount ?? 0,
        transports: splitTransports(row.transports) as never,
      },
    });
    if (!verified) return undefined;
    // Conditional on the counter read, so two requests with copies of one assertion cannot both move it.
    const updated = await ctx
      .db('user_second_factors')
      .where({ id: row.id, signCount: row.signCount ?? 0 })
      .update({ signCount: authenticationInfo.newCounter, lastUsedAt: encodeTimestamp(ctx.clock.now()) });
    return updated === 1 ? row : undefined;
  } catch (error) {
    ctx.log.warn({ err: error, userId: row.userId }, 'passkey assertion refused');
    return undefined;
  }
}

const INVALID_PASSKEY = 'That passkey could not sign you in. Try again, or sign in with your email and password.';

/**
 * POST /api/login/passkey {response}: the sign-in itself. Counted in the throttle like a password (by the account the
 * passkey names, from this address), written to the sign-in history either way.
 */
export async function signInWithPasskey(
  ctx: AppContext,
  throttle: LoginThrottle,
  input: unknown,
  client: SessionClient,
): Promise<PublicUser> {
  requireRelyingParty(ctx);
  const { response } = parseInput(PasskeySignInSchema, input);
  const row = await passkeyByCredentialId(ctx.db, response.id);
  const user = row ? await findUserById(ctx.db, row.userId) : undefined;
  const throttleKey = user?.email ?? 'passkey:unknown';
  const wait = await throttle.reserveSignIn(ctx.db, throttleKey, client.ip, ctx.clock.now().getTime());
  if (wait > 0) {
    ctx.log.warn({ event: 'login_throttled', ip: client.ip }, 'sign-in throttled');
    throw tooManyRequests('Too many failed sign-in attempts. Try again later.', wait);
  }
  const accepted = user?.isActive ? await verifyPasskeyAssertion(ctx, response, user.id) : undefined;
  if (!user || !accepted) {
    // The challenge is spent either way (verifyPasskeyAssertion used it, or it is dropped here).
    if (!user?.isActive) await consumeChallenge(ctx, response.response.clientDataJSON, 'sign_in', null);
    const reason = !user ? 'unknown_passkey' : !user.isActive ? 'inactive' : 'passkey';
    ctx.log.warn({ event: 'login_failed', ip: client.ip, reason }, 'sign-in failed');
    await recordSignInEvent(ctx.db, ctx, client, {
      kind: 'sign_in',
      succeeded: false,
      userId: user?.id ?? null,
      email: user?.email ?? '',
      detail: reason,
    });
    throw new AppError(401, 'invalid_passkey', INVALID_PASSKEY);
  }
  await throttle.releaseSignIn(ctx.db, user.email, client.ip);
  const lastLogin = ctx.clock.now();
  await updateUser(ctx.db, user.id, { lastLogin });
  await recordSignInEvent(ctx.db, ctx, client, { kind: 'sign_in', succeeded: true, userId: user.id, email: user.email, detail: 'passkey' });
  await noticeNewBrowser(ctx, user, client);
  ctx.log.info({ event: 'login', userId: user.id, how: 'passkey' }, 'signed in');
  return presentUser({ ...user, lastLogin: lastLogin.toISOString() });
}
