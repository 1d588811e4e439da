/**
 * Requests per token per second, counted in this process: a token bucket per token that holds `perSecond` requests
 * and refills at that rate, so a script may burst up to the limit and then goes at the limit. Each server process
 * counts on its own (docs/decisions/0096-api-tokens.md): the limit protects the process from one runaway script, and
 * a shared counter would cost a round trip on every request.
 */
export class TokenRateLimiter {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();

  constructor(private readonly perSecond: number) {}

  /** Takes one request for `tokenId` at `nowMs`: 0 to go ahead, else whole seconds until one is free (Retry-After). */
  take(tokenId: number, nowMs: number): number {
    const bucket = this.buckets.get(tokenId) ?? { tokens: this.perSecond, at: nowMs };
    const refilled = Math.min(this.perSecond, bucket.tokens + (Math.max(0, nowMs - bucket.at) / 1000) * this.perSecond);
    if (refilled < 1) {
      this.buckets.set(tokenId, { tokens: refilled, at: nowMs });
      return Math.max(1, Math.ceil((1 - refilled) / this.perSecond));
    }
    this.buckets.set(tokenId, { tokens: refilled - 1, at: nowMs });
    // Full buckets say nothing: forget them now and then, so revoked or idle tokens are not kept for ever.
    if (this.buckets.size > 1000) for (const [id, kept] of this.buckets) if (nowMs - kept.at > 60_000) this.buckets.delete(id);
    return 0;
  }
}
