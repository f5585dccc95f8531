import { LRUCache } from 'lru-cache';

export interface RequestRateLimiterOptions {
  /** Requests allowed per window; also the largest burst. */
  limit: number;
  windowMs: number;
  /** Keys remembered at most; beyond that the least recently used is forgotten. */
  maxKeys: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * GoTrue's per-address request limits (`[auth.rate_limit] sign_in_sign_ups`, `token_refresh`):
 * a token bucket per key that holds `limit` requests and refills at `limit` per window, so a
 * client may spend its allowance at once and then continues at the steady rate. In memory,
 * with a bounded number of keys.
 */
export class RequestRateLimiter {
  private readonly buckets: LRUCache<string, Bucket>;
  private readonly perMs: number;

  constructor(private readonly options: RequestRateLimiterOptions) {
    this.perMs = options.limit / options.windowMs;
    // A bucket left alone for a window is full again: forgetting it then changes nothing.
    this.buckets = new LRUCache({ max: options.maxKeys, ttl: options.windowMs });
  }

  /**
   * Takes one request from `key`'s allowance. Answers 0 when it was there, otherwise the
   * seconds until it will be (nothing is taken then).
   */
  take(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.options.limit, updatedAt: now };
    const tokens = Math.min(
      this.options.limit,
      bucket.tokens + Math.max(0, now - bucket.updatedAt) * this.perMs,
    );
    if (tokens < 1) {
      this.buckets.set(key, { tokens, updatedAt: now });
      return Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000));
    }
    this.buckets.set(key, { tokens: tokens - 1, updatedAt: now });
    return 0;
  }
}
