export interface FailureLimiterOptions {
  windowSeconds: number;
  /** Keys remembered at most; beyond that the key whose last failure is oldest is forgotten. */
  maxKeys: number;
}

/**
 * Counts failures per key (an e-mail address, a client address) in a sliding window, in
 * memory. Each key keeps at most `limit` timestamps and the number of keys is capped, so a
 * flood of made-up addresses costs bounded memory: it can only push out old entries.
 */
export class FailureLimiter {
  // Map iteration follows insertion order; a key is re-inserted on every failure, so the first
  // key is always the one that failed longest ago.
  private readonly failures = new Map<string, number[]>();
  private readonly windowMs: number;

  constructor(private readonly options: FailureLimiterOptions) {
    this.windowMs = options.windowSeconds * 1000;
  }

  private recent(key: string, now: number): number[] {
    const times = this.failures.get(key);
    if (!times) return [];
    const kept = times.filter((time) => now - time < this.windowMs);
    if (kept.length === 0) this.failures.delete(key);
    else if (kept.length !== times.length) this.failures.set(key, kept);
    return kept;
  }

  /**
   * Seconds until `key` may try again, or 0 when it has had fewer than `limit` failures in the
   * window.
   */
  retryAfter(key: string, limit: number, now = Date.now()): number {
    const times = this.recent(key, now);
    if (times.length < limit) return 0;
    const oldestCounted = times[times.length - limit]!;
    return Math.max(1, Math.ceil((oldestCounted + this.windowMs - now) / 1000));
  }

  recordFailure(key: string, limit: number, now = Date.now()): void {
    const times = this.recent(key, now);
    times.push(now);
    this.failures.delete(key);
    this.failures.set(key, times.slice(-limit));
    while (this.failures.size > this.options.maxKeys) {
      const oldest = this.failures.keys().next().value;
      if (oldest === undefined) break;
      this.failures.delete(oldest);
    }
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}
