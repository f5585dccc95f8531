import type { WriteClock } from '../db/write-clock.ts';
import { isPassedToPostgres } from '../http/request-headers.ts';
import { replyParts } from './respond.ts';

/**
 * Remembered answers to table reads (GET and HEAD of a table or view), for the embedded
 * backend on PGlite, where this process is the database's only writer.
 *
 * An answer depends on the request (method, path and query), on everything Postgres can see of
 * it (the JWT claims and the request headers, which row-level security may read), on the data,
 * and, through `now()` in a policy or a view, on time. So the key is the method, the URL and
 * every header that reaches Postgres; an entry is used only while the write clock still shows
 * the generation at which it was read (any call that may write, by any service, moves it) and
 * for at most `ttlMs`. An answer read while a write was running is not kept: it may have been
 * read before or after that write.
 *
 * Function calls (`/rpc/…`) are never cached: a function may depend on anything.
 *
 * An answer is kept only for a key already asked for within the last `ttlMs` (the `asked` list,
 * by key): a kept answer could only ever be used within that time, so one asked for once would
 * only cost its copy, its place in memory and the collector's work. Lists and searches that
 * every caller asks differently (a distinct read) were kept at every read, 16 MB of bodies
 * replaced each second under the rest-read bench (bench/RESULTS.md). The list holds a 30-bit hash
 * of each key, not the key (the URL and every header, the token's included: several hundred
 * bytes, kept a second by every distinct read, so promoted to the old generation): two keys
 * of one hash only make an answer kept at its first read, which keeping never makes wrong, as
 * the answers themselves stay by their whole key.
 */
export interface CachedAnswer {
  status: number;
  headers: [string, string][];
  body: Uint8Array | null;
}

interface Entry {
  answer: CachedAnswer;
  generation: number;
  storedAt: number;
  bytes: number;
}

export interface ReadCacheOptions {
  /** How long an answer may be used at most, for policies and views that read the clock. */
  ttlMs: number;
  /** Answers larger than this are not kept. */
  maxEntryBytes: number;
  /** The least recently used answers are dropped beyond this total. */
  maxTotalBytes: number;
  /** How many keys asked for once are remembered at most (the oldest are forgotten first). */
  maxAskedKeys: number;
  now?: () => number;
}

export const READ_CACHE_DEFAULTS: ReadCacheOptions = {
  ttlMs: 1000,
  maxEntryBytes: 512 * 1024,
  maxTotalBytes: 16 * 1024 * 1024,
  maxAskedKeys: 4096,
};

/**
 * What a read started at, if its answer may be kept: the generation, when no write was running
 * then and its key had been asked for before. Null otherwise.
 */
export type ReadTicket = { generation: number } | null;

export class ReadCache {
  readonly #clock: WriteClock;
  readonly #options: ReadCacheOptions;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  #totalBytes = 0;
  /** When each key (by `askedHash`) was last asked for by a read that missed, oldest first. */
  readonly #asked = new Map<number, number>();

  constructor(clock: WriteClock, options: ReadCacheOptions = READ_CACHE_DEFAULTS) {
    this.#clock = clock;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The key of a request: method, URL and every header Postgres sees (`isPassedToPostgres`), from
   * `rawHeaders` (names and values in turn, as they came: Node's `rawHeaders`). Two requests
   * whose headers differ only in order, case or repetition get different keys although Postgres
   * sees the same: a miss, never a wrong answer. Read from the raw list, a hit does not build a
   * `Headers` object of the request (about a tenth of a hit's CPU).
   */
  static keyOf(method: string, url: string, rawHeaders: readonly string[]): string {
    let key = `${method} ${url}`;
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = rawHeaders[i]!;
      if (isPassedToPostgres(name.toLowerCase())) key += `\n${name}: ${rawHeaders[i + 1]}`;
    }
    return key;
  }

  get(key: string): CachedAnswer | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    const current =
      entry.generation === this.#clock.generation &&
      this.#now() - entry.storedAt < this.#options.ttlMs;
    if (!current) {
      this.#drop(key, entry);
      return undefined;
    }
    // Moved last: the Map's order is the order of use.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.answer;
  }

  /** Call before running the read of `key` whose answer may be kept (after `get` missed). */
  ticket(key: string): ReadTicket {
    const askedBefore = this.#noteAsked(key);
    return askedBefore && this.#clock.quiet ? { generation: this.#clock.generation } : null;
  }

  /** Keeps the answer if nothing may have written since the ticket was taken. */
  set(key: string, ticket: ReadTicket, answer: CachedAnswer): void {
    if (!ticket || ticket.generation !== this.#clock.generation || !this.#clock.quiet) return;
    const bytes = key.length + (answer.body?.byteLength ?? 0);
    if (bytes > this.#options.maxEntryBytes) return;
    const previous = this.#entries.get(key);
    if (previous) this.#drop(key, previous);
    this.#entries.set(key, { answer, generation: ticket.generation, storedAt: this.#now(), bytes });
    this.#totalBytes += bytes;
    for (const [oldKey, oldEntry] of this.#entries) {
      if (this.#totalBytes <= this.#options.maxTotalBytes) break;
      this.#drop(oldKey, oldEntry);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Records that `key` is asked for now; whether it had been within `ttlMs` before. */
  #noteAsked(key: string): boolean {
    const now = this.#now();
    const hash = askedHash(key);
    const last = this.#asked.get(hash);
    // Deleted and set again: the Map's order stays the order of asking.
    if (last !== undefined) this.#asked.delete(hash);
    this.#asked.set(hash, now);
    for (const [oldKey, at] of this.#asked) {
      if (this.#asked.size <= this.#options.maxAskedKeys && now - at < this.#options.ttlMs) break;
      this.#asked.delete(oldKey);
    }
    return last !== undefined && now - last < this.#options.ttlMs;
  }

  #drop(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#totalBytes -= entry.bytes;
  }
}

/**
 * FNV-1a of the key's UTF-16 code units, cut to 30 bits: what the `asked` list remembers a key by (see
 * `ReadCache`). Exported for its test.
 */
export function askedHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) {
    hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  }
  // 30 bits: a small integer in any V8 build, kept in the Map without a heap number.
  return hash & 0x3fffffff;
}

/** A fresh Response for a remembered answer (a Response body can be read only once). */
export function responseOf(answer: CachedAnswer): Response {
  return new Response(answer.body as BodyInit | null, {
    status: answer.status,
    headers: answer.headers,
  });
}

/**
 * What to keep of an answer that `reply` made, taken before the API middleware adds its headers
 * to the response sent. Taken from the parts, not by reading the body back: reading it would
 * turn @hono/node-server's light response into an undici one whose body is then streamed, on
 * every read the database answers. Any other response is not kept (null).
 */
export function answerOf(response: Response): CachedAnswer | null {
  const parts = replyParts(response);
  if (!parts) return null;
  return {
    status: parts.status,
    headers: [...parts.headers],
    body: parts.body === null ? null : ownBytes(parts.body),
  };
}

/**
 * The body as bytes the entry may keep: a read's body (bytes of its own, see `ResultRow`) as it
 * is, without a copy; anything else copied, so an entry never holds a larger shared buffer.
 */
function ownBytes(body: string | Uint8Array): Uint8Array {
  if (
    typeof body !== 'string' &&
    body.byteOffset === 0 &&
    body.byteLength === body.buffer.byteLength
  ) {
    return body;
  }
  return Buffer.from(body);
}

const caches = new WeakMap<WriteClock, ReadCache>();

/** The read cache of a database, or null when other clients may write to it (PostgreSQL). */
export function readCacheFor(clock: WriteClock | undefined): ReadCache | null {
  if (!clock) return null;
  let cache = caches.get(clock);
  if (!cache) {
    cache = new ReadCache(clock);
    caches.set(clock, cache);
  }
  return cache;
}
