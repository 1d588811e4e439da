import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { decodeRows, encodeTimestamp } from '@db/codecs.js';
import { columnKinds } from '@db/columns.js';
import type { SignInEventKind, SignInEventView } from '@shared/schemas/auth.js';
import type { Actor, AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { mailConfigured, sendMail } from '../mail/mailer.js';
import { requireRole } from '../roles.js';
import { describeClient, type SessionClient } from './sessions.js';

const PRODUCT_NAME = 'Pacer CRM';

/**
 * The sign-in history (docs/decisions/0103): one row per sign-in (succeeded or not), second-factor use, password
 * change or reset and two-factor change, with the address and browser. The user sees theirs on /settings/account,
 * an admin anyone's on /settings/users; the rows are plain (who, what, when, from where) so a later site-wide
 * activity log reads the same table.
 */
export interface SignInEvent {
  kind: SignInEventKind;
  succeeded: boolean;
  userId: number | null;
  email?: string;
  detail?: string;
  /** Someone other than the user did it (an admin's reset); null for the user or the CLI. */
  actorId?: number | null;
}

interface SignInEventRow {
  id: number;
  occurredAt: string;
  kind: SignInEventKind;
  succeeded: boolean;
  detail: string | null;
  ip: string;
  userAgent: string;
  actorFirstName: string | null;
  actorLastName: string | null;
}

/** The browser and system of a user agent, hashed: how "a browser never seen before" is told apart. */
function browserKeyOf(userAgent: string): string {
  const { browser, os } = describeClient(userAgent);
  return createHash('sha256')
    .update(`${browser.replace(/ \d+$/, '')}|${os.replace(/ .*$/, '')}`)
    .digest('hex');
}

export async function recordSignInEvent(db: Knex, ctx: AppContext, client: SessionClient, event: SignInEvent): Promise<void> {
  await db('sign_in_events').insert({
    occurredAt: encodeTimestamp(ctx.clock.now()),
    userId: event.userId,
    actorId: event.actorId ?? null,
    email: (event.email ?? '').toLowerCase().slice(0, 255),
    kind: event.kind,
    succeeded: event.succeeded ? 1 : 0,
    detail: event.detail ?? null,
    ip: client.ip.slice(0, 64),
    userAgent: client.userAgent.slice(0, 500),
    browserKey: browserKeyOf(client.userAgent),
  });
}

/** No client: an action of the CLI. */
export const CLI_CLIENT: SessionClient = { ip: 'cli', userAgent: '' };

const HISTORY_LIMIT = 100;

async function listEvents(ctx: AppContext, userId: number): Promise<SignInEventView[]> {
  const rows = decodeRows<SignInEventRow>(
    columnKinds.sign_in_events,
    await ctx
      .db('sign_in_events as e')
      .leftJoin('users as a', 'a.id', 'e.actorId')
      .where('e.userId', userId)
      .orderBy([
        { column: 'e.occurredAt', order: 'desc' },
        { column: 'e.id', order: 'desc' },
      ])
      .limit(HISTORY_LIMIT)
      .select(
        'e.id',
        'e.occurredAt',
        'e.kind',
        'e.succeeded',
        'e.detail',
        'e.ip',
        'e.userAgent',
        'a.firstName as actorFirstName',
        'a.lastName as actorLastName',
      ),
  );
  return rows.map((row) => ({
    id: row.id,
    occurredAt: row.occurredAt,
    kind: row.kind,
    succeeded: row.succeeded,
    detail: row.detail,
    ip: row.ip,
    ...describeClient(row.userAgent),
    by: row.actorFirstName === null ? null : `${row.actorFirstName} ${row.actorLastName ?? ''}`.trim(),
  }));
}

/** GET /api/me/sign-ins: my last hundred entries, newest first. */
export const listMySignIns = (ctx: AppContext, userId: number) => listEvents(ctx, userId);

/** An admin reads anyone's (the users page). */
export async function listSignInsOf(ctx: AppContext, actor: Actor, userId: number): Promise<SignInEventView[]> {
  requireRole(actor, 'admin');
  if (!(await ctx.db('users').where({ id: userId }).first('id'))) throw notFound('User not found');
  return listEvents(ctx, userId);
}

/**
 * After a successful sign-in: when the user has signed in before but never from this browser (its name and system),
 * they get an email, so a sign-in they did not make does not go unseen. Sent in the background; a mail failure is
 * logged, never the sign-in's.
 */
export async function noticeNewBrowser(ctx: AppContext, user: { id: number; email: string; firstName: string }, client: SessionClient) {
  if (!mailConfigured(ctx)) return;
  const key = browserKeyOf(client.userAgent);
  const seen = (await ctx
    .db('sign_in_events')
    .where({ userId: user.id, kind: 'sign_in', succeeded: 1 })
    .select(ctx.db.raw('SUM(CASE WHEN ?? = ? THEN 1 ELSE 0 END) AS ??', ['browserKey', key, 'same']))
    .count({ all: '*' })
    .first()) as { same: number | string | null; all: number | string } | undefined;
  // This sign-in is already recorded: the browser is new when it is the only one with its key, and not the first ever.
  if (!seen || Number(seen.all) <= 1 || Number(seen.same ?? 0) > 1) return;
  const { browser, os } = describeClient(client.userAgent);
  const at = ctx.clock.now().toISOString().replace('T', ' ').slice(0, 16);
  void sendMail(ctx, {
    to: user.email,
    subject: `New sign-in to your ${PRODUCT_NAME} account`,
    text: [
      `Hello ${user.firstName},`,
      '',
      `Your ${PRODUCT_NAME} account was signed in to from a browser it had not seen before:`,
      `${browser} on ${os}, from ${client.ip}, at ${at} UTC.`,
      '',
      'If this was you, there is nothing to do. If not, change your password now and sign out of your other',
      'sessions on your account page, then tell an admin.',
    ].join('\n'),
  }).catch((error: unknown) => ctx.log.warn({ err: error, userId: user.id }, 'could not email the new-browser notice'));
}
