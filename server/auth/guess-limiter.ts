import { LRUCache } from 'lru-cache';
import type { GuessSettings } from '../config/auth-settings.ts';
import type { Database, Queryable } from '../db/database.ts';

/*
 * Slowing down password guessing without locking owners out (issue 11, F3).
 *
 * A lock per account ("5 failures and the account is closed for 15 minutes") lets any stranger
 * lock anyone out, and a lock per client address closes a whole office behind one shared
 * connection. OWASP's authentication guidance warns about exactly this and recommends slowing
 * guesses down per client instead, exempting clients the account already trusts (its "device
 * cookies"); Keycloak's brute-force detection likewise grows the wait with every failure instead
 * of closing for good. Here the client is its address, and the budgets are:
 *
 * 1. One address on one account: after `perAccountAndAddress` failures, the address must wait
 *    before its next attempt there, twice as long after every further failure (1 s, 2 s, 4 s,
 *    … up to 15 minutes): about 20 guesses an hour, and it hurts only whoever is guessing.
 * 2. One address over all accounts: the same after `perAddress` failures, against spraying one
 *    password over many accounts.
 * 3. One account from all addresses: past `perAccount` failures, attempts from addresses the
 *    account has not signed in from take turns, one per `accountPace` (20 s: at most 180 an
 *    hour, however many addresses an attacker has). An attempt is held until its turn, so it is
 *    delayed, not refused, unless its turn is more than `maxWait` away (then 429 with
 *    `Retry-After`).
 *
 * An address where the account signed in successfully within the last 30 days is trusted for
 * that account: rules 2 and 3 do not apply to it, only rule 1 (its own failures there). So the
 * owner typing the right password from where they usually sign in is never refused, whatever
 * strangers do elsewhere or beside them on the same connection; from an address that has not
 * been guessing it is at most delayed for its turn, and refused only while more than
 * maxWait / accountPace other addresses wait for the same account. Each attempt counts as a
 * failure from the moment it starts, so concurrent attempts cannot slip past a budget together.
 * Unknown accounts are counted like real ones, so nothing here reveals whether one exists.
 */

/** Where backoff starts and where it stops growing. */
const FIRST_WAIT_MS = 1000;
const LONGEST_WAIT_MS = 15 * 60_000;
/** How long a successful sign-in makes its address trusted for that account. */
const TRUST_MS = 30 * 86_400_000;

export interface GuessLimiterOptions extends GuessSettings {
  /** Keys remembered at most per kind; beyond that the least recently used are forgotten. */
  maxKeys: number;
}

/** A sign-in attempt that may go ahead, after `waitMs`. Report how it ended. */
export interface GuessAttempt {
  waitMs: number;
  /** The password was right: the attempt is not a failure, and the address is trusted. */
  succeeded(): void;
  /** The password could not be checked (the server failed): the attempt does not count. */
  abandoned(): void;
}

export type GuessDecision =
  { allowed: true; attempt: GuessAttempt } | { allowed: false; retryAfterSeconds: number };

/** Failure times per key within the window, most recent last. */
class FailureLog {
  private readonly log: LRUCache<string, number[]>;

  constructor(
    private readonly windowMs: number,
    maxKeys: number,
  ) {
    this.log = new LRUCache({ max: maxKeys, ttl: windowMs });
  }

  recent(key: string, now: number): number[] {
    return (this.log.get(key) ?? []).filter((time) => now - time < this.windowMs);
  }

  add(key: string, now: number): void {
    // Beyond this many, more failures no longer lengthen any wait.
    this.log.set(key, [...this.recent(key, now), now].slice(-64));
  }

  remove(key: string, time: number): void {
    const times = this.log.get(key);
    const index = times?.lastIndexOf(time) ?? -1;
    if (times && index >= 0) times.splice(index, 1);
  }

  clear(key: string): void {
    this.log.delete(key);
  }
}

/** Milliseconds until a key with these failures may try again, past a budget of `free`. */
function backoff(failures: number[], free: number, now: number): number {
  if (failures.length < free) return 0;
  const wait = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures.length - free));
  return Math.max(0, failures[failures.length - 1]! + wait - now);
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Decides, per sign-in attempt, whether it may be checked now, after a wait, or not yet (see
 * the comment at the top of this file). In memory, bounded by `maxKeys` per kind of key.
 */
export class GuessLimiter {
  private readonly failures: FailureLog;
  private readonly trusted: LRUCache<string, true>;
  /** Per account in turns: when the next turn is free. */
  private readonly nextTurn: LRUCache<string, number>;

  constructor(private readonly options: GuessLimiterOptions) {
    this.failures = new FailureLog(options.windowMs, options.maxKeys);
    this.trusted = new LRUCache({ max: options.maxKeys, ttl: TRUST_MS });
    this.nextTurn = new LRUCache({ max: options.maxKeys, ttl: options.windowMs });
  }

  /**
   * An attempt on `account` (as the database compares e-mails) from `address` (as
   * `limiterAddress` gives it) is starting.
   */
  begin(account: string, address: string, now = Date.now()): GuessDecision {
    const { perAccountAndAddress, perAddress, perAccount, accountPaceMs, maxWaitMs } = this.options;
    const pairKey = `pair:${account}\n${address}`;
    const addressKey = `address:${address}`;
    const accountKey = `account:${account}`;

    const pairWait = backoff(this.failures.recent(pairKey, now), perAccountAndAddress, now);
    if (pairWait > 0) return { allowed: false, retryAfterSeconds: seconds(pairWait) };

    const trusted = this.trusted.has(pairKey);
    let waitMs = 0;
    if (!trusted) {
      const addressWait = backoff(this.failures.recent(addressKey, now), perAddress, now);
      if (addressWait > 0) return { allowed: false, retryAfterSeconds: seconds(addressWait) };
      if (this.failures.recent(accountKey, now).length >= perAccount) {
        const turn = Math.max(now, this.nextTurn.get(accountKey) ?? now);
        waitMs = turn - now;
        if (waitMs > maxWaitMs) return { allowed: false, retryAfterSeconds: seconds(waitMs) };
        this.nextTurn.set(accountKey, turn + accountPaceMs);
      }
    }

    // Counted as a failure until it succeeds, so concurrent attempts see each other.
    for (const key of [pairKey, addressKey, accountKey]) this.failures.add(key, now);
    return {
      allowed: true,
      attempt: {
        waitMs,
        succeeded: () => {
          this.failures.clear(pairKey);
          this.failures.remove(addressKey, now);
          this.failures.remove(accountKey, now);
          this.trusted.set(pairKey, true);
        },
        abandoned: () => {
          for (const key of [pairKey, addressKey, accountKey]) this.failures.remove(key, now);
        },
      },
    };
  }
}

/** An attempt that may go ahead, after `waitMs`, whose end is recorded where its budgets are. */
export interface GuessBudgetAttempt {
  waitMs: number;
  /** The password was right: the attempt is not a failure, and the address is trusted. */
  succeeded(): Promise<void>;
  /** The password could not be checked (the server failed): the attempt does not count. */
  abandoned(): Promise<void>;
}

export type GuessBudgetDecision =
  { allowed: true; attempt: GuessBudgetAttempt } | { allowed: false; retryAfterSeconds: number };

/** The guessing budgets of one kind of secret (`auth` passwords, `share` link passwords). */
export interface GuessBudgets {
  /** `db`: the request's handle, in whose turn the budgets kept in the database are read. */
  begin(db: Queryable, account: string, address: string): Promise<GuessBudgetDecision>;
}

/**
 * The budgets for this database. On PostgreSQL several server processes may share the
 * database, so the budgets are kept there (`_platform.begin_guess` and `end_guess` apply the
 * rules above to rows locked for the attempt, and the cleanup schedule of the request limits
 * deletes rows that say nothing any more); PGlite belongs to one process, which keeps them in
 * memory.
 */
export function guessBudgets(
  db: Pick<Database, 'kind'>,
  limiter: 'auth' | 'share',
  options: GuessLimiterOptions,
): GuessBudgets {
  if (db.kind === 'postgres') return new SharedGuessBudgets(limiter, options);
  const memory = new GuessLimiter(options);
  return {
    begin(_db, account, address) {
      const decision = memory.begin(account, address);
      if (!decision.allowed) return Promise.resolve(decision);
      const { attempt } = decision;
      return Promise.resolve({
        allowed: true,
        attempt: {
          waitMs: attempt.waitMs,
          succeeded: () => Promise.resolve(attempt.succeeded()),
          abandoned: () => Promise.resolve(attempt.abandoned()),
        },
      });
    },
  };
}

class SharedGuessBudgets implements GuessBudgets {
  constructor(
    private readonly limiter: 'auth' | 'share',
    private readonly options: GuessLimiterOptions,
  ) {}

  async begin(db: Queryable, account: string, address: string): Promise<GuessBudgetDecision> {
    const { perAccountAndAddress, perAddress, perAccount, accountPaceMs, maxWaitMs, windowMs } =
      this.options;
    const { rows } = await db.query<{
      allowed: boolean;
      wait_ms: number;
      retry_after: number | null;
      started: string | null;
    }>(
      // At the process's clock, as the budgets kept in memory.
      `select allowed, wait_ms, retry_after, started::text
         from _platform.begin_guess($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::timestamptz)`,
      [
        this.limiter,
        account,
        address,
        perAccountAndAddress,
        perAddress,
        perAccount,
        accountPaceMs,
        maxWaitMs,
        windowMs,
        new Date().toISOString(),
      ],
    );
    const row = rows[0]!;
    if (!row.allowed) return { allowed: false, retryAfterSeconds: Number(row.retry_after) };
    const end = async (succeeded: boolean) => {
      await db.query(
        'select _platform.end_guess($1, $2, $3, $4::timestamptz, $5, $6::timestamptz)',
        [this.limiter, account, address, row.started, succeeded, new Date().toISOString()],
      );
    };
    return {
      allowed: true,
      attempt: {
        waitMs: Math.max(0, Number(row.wait_ms)),
        succeeded: () => end(true),
        abandoned: () => end(false),
      },
    };
  }
}
