import type { Knex } from 'knex';
import { encodeTimestamp } from '@db/codecs.js';
import { withTransaction } from '@db/transaction.js';
import type { Actor, AppContext } from '../context.js';
import { conflict, validationFailed } from '../errors.js';
import { requireRole } from '../roles.js';

/** The site-wide switch "require two-factor sign-in for everyone", kept in app_settings (docs/decisions/0102). */
const REQUIRE_TWO_FACTOR = 'requireTwoFactor';

/** Whether the user must give a second factor to sign in (has a confirmed one). */
export async function hasSecondFactor(db: Knex, userId: number): Promise<boolean> {
  return Boolean(await db('user_second_factors').where({ userId }).whereNotNull('confirmedAt').first('id'));
}

/** A new session of this user may only set up a second factor: one is required and they have none. */
export async function secondFactorSetupRequired(db: Knex, userId: number): Promise<boolean> {
  return (await requiresTwoFactor(db)) && !(await hasSecondFactor(db, userId));
}

export async function requiresTwoFactor(db: Knex): Promise<boolean> {
  const row = (await db('app_settings').where({ name: REQUIRE_TWO_FACTOR }).first('value')) as { value: string } | undefined;
  return row?.value === 'true';
}

/** The site's security settings, as the users page shows them (admins). */
export async function securitySettings(ctx: AppContext, actor: Actor): Promise<{ requireTwoFactor: boolean }> {
  requireRole(actor, 'admin');
  return { requireTwoFactor: await requiresTwoFactor(ctx.db) };
}

/**
 * An admin turns the requirement on or off. On: every session of a user without a confirmed second factor may
 * from now on only set one up (they are sent to /settings/account); off: nobody is held there.
 */
export async function setRequireTwoFactor(ctx: AppContext, actor: Actor, input: unknown): Promise<{ requireTwoFactor: boolean }> {
  requireRole(actor, 'admin');
  const value = (input as { requireTwoFactor?: unknown } | null)?.requireTwoFactor;
  if (typeof value !== 'boolean')
    throw validationFailed('requireTwoFactor must be true or false', [{ path: 'requireTwoFactor', message: 'Must be true or false' }]);
  // Else the admin would hold their own session at the set-up page as soon as they turned it on.
  if (value && actor.userId !== null && !(await hasSecondFactor(ctx.db, actor.userId)))
    throw conflict('Turn on two-factor sign-in for your own account first, then require it for everyone.');
  await withTransaction(ctx, async (trx) => {
    const row = { value: String(value), updatedAt: encodeTimestamp(ctx.clock.now()), updatedBy: actor.userId };
    await trx('app_settings')
      .insert({ name: REQUIRE_TWO_FACTOR, ...row })
      .onConflict('name')
      .merge(row);
    if (value)
      await trx('sessions')
        .whereNotIn('userId', trx('user_second_factors').whereNotNull('confirmedAt').select('userId'))
        .update({ secondFactorSetupRequired: 1 });
    else await trx('sessions').update({ secondFactorSetupRequired: 0 });
  });
  ctx.log.info({ event: 'require_two_factor', value, by: actor.userId }, 'two-factor requirement changed');
  return { requireTwoFactor: value };
}
