import { AsyncLocalStorage } from 'node:async_hooks';
import type { TimedRole } from '../config.ts';

/**
 * Who the database work of the current request is for, carried through every `await` of the
 * request without passing it around: the scheduler takes turns between lanes (see
 * fair-queue.ts), and the deadline of each statement follows the role.
 */
export interface RequestScope {
  /** Whose turn the work counts against: a user id, or a client address for anonymous callers. */
  lane: string;
  /** The role whose time limit applies (steward.toml `[database] statement_timeout_<role>`). */
  role: TimedRole;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` with `scope` as the current request scope. */
export function withRequestScope<T>(scope: RequestScope, fn: () => T): T {
  return storage.run(scope, fn);
}

/**
 * The current request's scope; `undefined` for the server's own work outside any request
 * (migrations, start-up sweeps), which has no deadline.
 */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}

/**
 * Runs `fn` as the server's own work, outside the current request's scope: no deadline and the
 * server's lane (a backup snapshot asked for over HTTP must not be cut off by the request's
 * time limit).
 */
export function outsideRequestScope<T>(fn: () => T): T {
  return storage.exit(fn);
}
