import { LRUCache } from 'lru-cache';
import type { Database, Queryable } from '../db/database.ts';

export interface RequestRateLimiterOptions {
  /** Names the limit among the others sharing the database (e.g. `auth.token_refresh`). */
  name: string;
  /** Requests allowed per window; also the largest burst. */
  limit: number;
  windowMs: number;
  /** Keys remembered at most in memory; beyond that the least recently used is forgotten. */
  maxKeys: number;
}

/**
 * GoTrue's per-address request limits (`[auth.rate_limit] sign_in_sign_ups`, `token_refresh`)
 * and Steward's alike: a token bucket per key that holds `limit` requests and refills at
 * `limit` per window, so a client may spend its allowance at once and then continues at the
 * steady rate.
 */
export interface RequestRateLimiter {
  /**
   * Takes one request from `key`'s allowance. Answers 0 when it was there, otherwise the
   * seconds until it will be (nothing is taken then).
   */
  /** `db`: the request's handle, in whose turn allowances kept in the database are taken. */
  take(db: Queryable, key: string): Promise<number>;
}

/**
 * The limiter for this database. On PostgreSQL several server processes may share the
 * database, so they count together in `_platform.request_allowances` (one row per limit and
 * key, taken with one locked upsert); PGlite belongs to one process, which counts in memory
 * (a write per counted request would also empty its REST read cache every time).
 */
export function requestRateLimiter(
  db: Pick<Database, 'kind'>,
  options: RequestRateLimiterOptions,
): RequestRateLimiter {
  return db.kind === 'postgres'
    ? new SharedRequestRateLimiter(options)
    : new MemoryRequestRateLimiter(options);
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** The buckets in this process's memory, with a bounded number of keys. */
class MemoryRequestRateLimiter implements RequestRateLimiter {
  private readonly buckets: LRUCache<string, Bucket>;
  private readonly perMs: number;

  constructor(private readonly options: RequestRateLimiterOptions) {
    this.perMs = options.limit / options.windowMs;
    // A bucket left alone for a window is full again: forgetting it then changes nothing.
    this.buckets = new LRUCache({ max: options.maxKeys, ttl: options.windowMs });
  }

  take(_db: Queryable, key: string): Promise<number> {
    const now = Date.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.options.limit, updatedAt: now };
    const tokens = Math.min(
      this.options.limit,
      bucket.tokens + Math.max(0, now - bucket.updatedAt) * this.perMs,
    );
    if (tokens < 1) {
      this.buckets.set(key, { tokens, updatedAt: now });
      return Promise.resolve(Math.max(1, Math.ceil((1 - tokens) / this.perMs / 1000)));
    }
    this.buckets.set(key, { tokens: tokens - 1, updatedAt: now });
    return Promise.resolve(0);
  }
}

/**
 * The buckets in the database, the same for every process. Rows that are full again are
 * deleted by the `auth.forget-full-allowances` schedule.
 */
class SharedRequestRateLimiter implements RequestRateLimiter {
  constructor(private readonly options: RequestRateLimiterOptions) {}

  async take(db: Queryable, key: string): Promise<number> {
    const { rows } = await db.query<{ wait: number }>(
      'select _platform.take_request_allowance($1, $2, $3, $4, $5::timestamptz) as wait',
      [this.options.name, key, this.options.limit, this.options.windowMs, new Date().toISOString()],
    );
    return Number(rows[0]!.wait);
  }
}
