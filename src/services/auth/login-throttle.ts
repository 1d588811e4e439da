import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { withTransaction } from '@db/transaction.js';

/**
 * Counts password checks in fixed windows, per account+IP and per IP for sign-in, per account for the "current
 * password" of a password change, and per IP for first-run set-up, so one attacker can neither guess one password
 * nor spray many accounts. The counters live in the database (sign_in_throttle), so every server process and a
 * restart share them (docs/decisions/0003-login-throttling.md, 0088-throttle-reserves-before-checking.md).
 *
 * An attempt is reserved (counted) before its password is checked, in one transaction that increments the counters
 * and reads them back under their row locks: however many attempts arrive at once, at most the limit of them get
 * to bcrypt. A right password gives its reservation back.
 */
export interface ThrottleLimits {
  perAccountAndIp: number;
  perIp: number;
  windowMs: number;
}

export const defaultThrottleLimits: ThrottleLimits = { perAccountAndIp: 10, perIp: 100, windowMs: 15 * 60_000 };

const TABLE = 'sign_in_throttle';
/** Windows that ended are deleted now and then by a reservation, so the table stays small. */
const PRUNE_EVERY = 200;
/** Rounds of "make the missing counter rows, then count" before giving up (a row pruned as soon as it is made). */
const RESERVE_ROUNDS = 3;

type ThrottleKey = [hash: string, limit: number];

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** Thrown inside the reserving transaction to roll its increments back: a refused attempt counts for nothing. */
class Refused {
  constructor(readonly retryAfter: number) {}
}

/** Thrown inside the reserving transaction when a key has no counter row yet: rolled back, made, and run again. */
class MissingRows {
  constructor(readonly hashes: string[]) {}
}

export class LoginThrottle {
  private reservationsSincePrune = 0;

  constructor(private readonly limits: ThrottleLimits = defaultThrottleLimits) {}

  private signInKeys(email: string, ip: string): [account: ThrottleKey, ip: ThrottleKey] {
    return [
      [keyHash(`acct:${email.toLowerCase()}|${ip}`), this.limits.perAccountAndIp],
      [keyHash(`ip:${ip}`), this.limits.perIp],
    ];
  }

  private passwordCheckKey(userId: number): ThrottleKey {
    return [keyHash(`password-check:${userId}`), this.limits.perAccountAndIp];
  }

  private setupKey(ip: string): ThrottleKey {
    return [keyHash(`setup:${ip}`), this.limits.perAccountAndIp];
  }

  /** Reserves one sign-in attempt. Seconds until the caller may try again (nothing reserved), or 0 to go ahead. */
  reserveSignIn(db: Knex, email: string, ip: string, now: number): Promise<number> {
    return this.reserve(db, this.signInKeys(email, ip), now);
  }

  /** A right password clears this account's counter from this address and gives the per-IP reservation back. */
  async releaseSignIn(db: Knex, email: string, ip: string): Promise<void> {
    const [account, address] = this.signInKeys(email, ip);
    await db(TABLE).where({ throttleKey: account[0] }).delete();
    await giveBack(db, address[0]);
  }

  /** A right password whose second factor is still to come: this attempt counted for nothing (the counter stays). */
  async giveBackSignIn(db: Knex, email: string, ip: string): Promise<void> {
    for (const [hash] of this.signInKeys(email, ip)) await giveBack(db, hash);
  }

  /** Reserves one check of a signed-in user's current password (a password change), per account. */
  reservePasswordCheck(db: Knex, userId: number, now: number): Promise<number> {
    return this.reserve(db, [this.passwordCheckKey(userId)], now);
  }

  /** The current password was right: that account's counter starts again. */
  async releasePasswordCheck(db: Knex, userId: number): Promise<void> {
    await db(TABLE)
      .where({ throttleKey: this.passwordCheckKey(userId)[0] })
      .delete();
  }

  /**
   * Reserves one "Forgot password?" request, per address asked for and per client, whether or not the address has
   * an account (the answer must not tell). Never given back: each request may send an email.
   */
  reservePasswordReset(db: Knex, email: string, ip: string, now: number): Promise<number> {
    return this.reserve(
      db,
      [
        [keyHash(`reset:${email.toLowerCase()}`), this.limits.perAccountAndIp],
        [keyHash(`reset-ip:${ip}`), this.limits.perAccountAndIp],
      ],
      now,
    );
  }

  /** Reserves one first-run set-up (a password hashed for an anonymous caller), per address. */
  reserveSetup(db: Knex, ip: string, now: number): Promise<number> {
    return this.reserve(db, [this.setupKey(ip)], now);
  }

  /**
   * Counts one attempt on every key, or none when any key is at its limit. One UPDATE increments the keys' rows, a
   * window that has ended starting again at 1, and a SELECT in the same transaction reads what that UPDATE left.
   * The UPDATE holds the rows' locks (MariaDB, in key order, so two reservations cannot deadlock; SQLite, the
   * database's write lock) until the commit, so no other reservation counts in between. A key without a row yet
   * rolls the round back; its row is made on its own (one single-row insert-or-ignore each: a multi-row insert
   * holding one new row while it waits for another deadlocks with a reservation) and the round runs again.
   */
  private async reserve(db: Knex, keys: ThrottleKey[], now: number): Promise<number> {
    const hashes = keys.map(([hash]) => hash);
    const resetAt = now + this.limits.windowMs;
    await this.prune(db, now);
    for (let round = 1; ; round++) {
      try {
        await withTransaction({ db }, async (trx) => {
          await trx(TABLE)
            .whereIn('throttleKey', hashes)
            .update({
              // MySQL assigns left to right, so failures is computed while resetAt still holds the stored value.
              failures: trx.raw('CASE WHEN ?? <= ? THEN 1 ELSE ?? + 1 END', ['resetAt', now, 'failures']),
              resetAt: trx.raw('CASE WHEN ?? <= ? THEN ? ELSE ?? END', ['resetAt', now, resetAt, 'resetAt']),
            });
          const rows = (await trx(TABLE).whereIn('throttleKey', hashes).select('throttleKey', 'failures', 'resetAt')) as Array<{
            throttleKey: string;
            failures: number;
            resetAt: number | string;
          }>;
          if (rows.length < keys.length) throw new MissingRows(hashes.filter((hash) => !rows.some((row) => row.throttleKey === hash)));
          let wait = 0;
          for (const row of rows) {
            const limit = keys.find(([hash]) => hash === row.throttleKey)![1];
            if (Number(row.failures) > limit) wait = Math.max(wait, Math.ceil((Number(row.resetAt) - now) / 1000));
          }
          if (wait > 0) throw new Refused(wait);
        });
        return 0;
      } catch (error) {
        if (error instanceof Refused) return error.retryAfter;
        if (!(error instanceof MissingRows)) throw error;
        // Made and pruned over and over: refuse this once rather than loop.
        if (round >= RESERVE_ROUNDS) return 1;
        for (const throttleKey of error.hashes)
          await withTransaction({ db }, (trx) =>
            trx(TABLE).insert({ throttleKey, failures: 0, resetAt }).onConflict('throttleKey').ignore(),
          );
      }
    }
  }

  private async prune(db: Knex, now: number): Promise<void> {
    if (++this.reservationsSincePrune < PRUNE_EVERY) return;
    this.reservationsSincePrune = 0;
    await db(TABLE).where('resetAt', '<=', now).delete();
  }
}

/** Gives one reservation back (a right password is not a failure); never below 0. */
async function giveBack(db: Knex, hash: string): Promise<void> {
  await db(TABLE)
    .where({ throttleKey: hash })
    .where('failures', '>', 0)
    .update({ failures: db.raw('?? - 1', ['failures']) });
}
