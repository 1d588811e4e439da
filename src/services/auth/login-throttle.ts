/**
 * Counts failed sign-ins in fixed windows, per account+IP and per IP, so one attacker can neither guess one
 * password nor spray many accounts. Kept in memory: one process per deployment today (see ADR 0003).
 */
export interface ThrottleLimits {
  perAccountAndIp: number;
  perIp: number;
  windowMs: number;
}

export const defaultThrottleLimits: ThrottleLimits = { perAccountAndIp: 10, perIp: 100, windowMs: 15 * 60_000 };

interface Window {
  count: number;
  resetAt: number;
}

export class LoginThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly limits: ThrottleLimits = defaultThrottleLimits) {}

  /** Seconds until the caller may try again, or 0 when it may try now. */
  retryAfter(email: string, ip: string, now: number): number {
    let wait = 0;
    for (const [key, limit] of this.keys(email, ip)) {
      const window = this.windows.get(key);
      if (window && window.resetAt > now && window.count >= limit) wait = Math.max(wait, Math.ceil((window.resetAt - now) / 1000));
    }
    return wait;
  }

  recordFailure(email: string, ip: string, now: number): void {
    for (const [key] of this.keys(email, ip)) {
      const window = this.windows.get(key);
      if (!window || window.resetAt <= now) this.windows.set(key, { count: 1, resetAt: now + this.limits.windowMs });
      else window.count += 1;
    }
    if (this.windows.size > 50_000) this.prune(now);
  }

  recordSuccess(email: string, ip: string): void {
    this.windows.delete(`acct:${email.toLowerCase()}|${ip}`);
  }

  private keys(email: string, ip: string): Array<[string, number]> {
    return [
      [`acct:${email.toLowerCase()}|${ip}`, this.limits.perAccountAndIp],
      [`ip:${ip}`, this.limits.perIp],
    ];
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
