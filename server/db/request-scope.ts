import type { TimedRole } from '../config.ts';

/**
 * Who a piece of database work is for. It travels with the database handle the work is given
 * (`Database.scoped`), not in the async context: `AsyncLocalStorage` turns on V8's promise hooks
 * for every promise of the process on Node 20, about 7 % of the CPU of a REST read
 * (bench/RESULTS.md). The scheduler takes turns between lanes (see fair-queue.ts), and the
 * deadline of each statement follows the role.
 */
export interface RequestScope {
  /** Whose turn the work counts against: a user id, or a client address for anonymous callers. */
  lane: string;
  /** The role whose time limit applies (steward.toml `[database] statement_timeout_<role>`). */
  role: TimedRole;
}

/**
 * The lane of the server's own work (migrations, start-up sweeps, a backup snapshot asked for
 * over HTTP), which has no deadline.
 */
export const SERVER_LANE = 'server';

/** The lane of `scope`; the server's own lane for the server's work (`null`). */
export const laneOf = (scope: RequestScope | null): string => scope?.lane ?? SERVER_LANE;
