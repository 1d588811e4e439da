import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Counts failed sign-ins in fixed windows, per account+IP and per IP, so one attacker can neither guess one
 * password nor spray many accounts. The counters live in the database (sign_in_throttle), so every server process
 * and a restart share them (docs/decisions/0003-login-throttling.md).
 */
export interface ThrottleLimits {
  perAccountAndIp: number;
  perIp: number;
  windowMs: number;
}

export const defaultThrottleLimits: ThrottleLimits = { perAccountAndIp: 10, perIp: 100, windowMs: 15 * 60_000 };

const TABLE = 'sign_in_throttle';
/** Windows that ended this long ago are deleted now and then by a failing sign-in, so the table stays small. */
const PRUNE_EVERY = 200;

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

export class LoginThrottle {
  private failuresSincePrune = 0;

  constructor(private readonly limits: ThrottleLimits = defaultThrottleLimits) {}

  private keys(email: string, ip: string): Array<[hash: string, limit: number]> {
    return [
      [keyHash(`acct:${email.toLowerCase()}|${ip}`), this.limits.perAccountAndIp],
      [keyHash(`ip:${ip}`), this.limits.perIp],
    ];
  }

  /** Seconds until the caller may try again, or 0 when it may try now. */
  async retryAfter(db: Knex, email: string, ip: string, now: number): Promise<number> {
    const keys = this.keys(email, ip);
    const rows = (await db(TABLE)
      .whereIn(
        'throttleKey',
        keys.map(([hash]) => hash),
      )
      .select('throttleKey', 'failures', 'resetAt')) as Array<{ throttleKey: string; failures: number; resetAt: number | string }>;
    let wait = 0;
    for (const row of rows) {
      const limit = keys.find(([hash]) => hash === row.throttleKey)![1];
      const resetAt = Number(row.resetAt);
      if (resetAt > now && Number(row.failures) >= limit) wait = Math.max(wait, Math.ceil((resetAt - now) / 1000));
    }
    return wait;
  }

  /**
   * One upsert per key, atomic in the database: a window that has ended starts again at 1, otherwise the count
   * goes up by one. Two processes counting at once both land (no read-modify-write in Node).
   */
  async recordFailure(db: Knex, email: string, ip: string, now: number): Promise<void> {
    for (const [hash] of this.keys(email, ip)) {
      await db(TABLE)
        .insert({ throttleKey: hash, failures: 1, resetAt: now + this.limits.windowMs })
        .onConflict('throttleKey')
        .merge({
          // MySQL assigns left to right, so failures is computed while resetAt still holds the stored value.
          failures: db.raw('CASE WHEN ?? <= ? THEN 1 ELSE ?? + 1 END', ['resetAt', now, 'failures']),
          resetAt: db.raw('CASE WHEN ?? <= ? THEN ? ELSE ?? END', ['resetAt', now, now + this.limits.windowMs, 'resetAt']),
        });
    }
    if (++this.failuresSincePrune >= PRUNE_EVERY) {
      this.failuresSincePrune = 0;
      await db(TABLE).where('resetAt', '<=', now).delete();
    }
  }

  /** A right password clears this account's counter from this address (the per-IP one keeps counting). */
  async recordSuccess(db: Knex, email: string, ip: string): Promise<void> {
    await db(TABLE)
      .where({ throttleKey: this.keys(email, ip)[0]![0] })
      .delete();
  }
}
