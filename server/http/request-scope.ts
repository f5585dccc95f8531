import type { MiddlewareHandler } from 'hono';
import { currentRequestScope, withRequestScope } from '../db/request-scope.ts';
import type { ApiEnv } from './api-env.ts';
import { clientAddress } from './client-address.ts';

/**
 * Puts every API request in its scope (db/request-scope.ts): the database takes turns between
 * lanes, one per signed-in user, one per client address for everyone else, and one for the
 * service role. The time limit of REST requests, whose statements the caller shapes, follows
 * the caller's role, as on Supabase; the other services run statements of the server's own
 * making and have the service role's limit. A token that does not verify counts as anonymous
 * here (the service then refuses it with its own error). Runs after `credentials()`.
 */
export function requestScope(): MiddlewareHandler<ApiEnv> {
  return (c, next) => {
    // c.get, not c.var: Hono builds c.var afresh from its map on every read.
    const result = c.get('credentials').caller;
    const caller = result.ok ? result.caller : null;
    const callerRole = caller?.role ?? 'anon';
    const role = c.req.path.startsWith('/rest/') ? callerRole : 'service_role';
    const subject = typeof caller?.claims.sub === 'string' ? caller.claims.sub : null;
    const lane =
      callerRole === 'service_role'
        ? 'service'
        : subject
          ? userLane(subject)
          : `address:${clientAddress(c) ?? 'unknown'}`;
    return withRequestScope({ lane, role }, next);
  };
}

/** The lane of a signed-in user's database work. */
const userLane = (subject: string) => `user:${subject}`;

/**
 * Runs `fn` with its database work in the lane of user `subject` (null: the lane stays). A
 * signed URL carries no token: without this its work would take the turns of the address it is
 * fetched from, and the staff of a church, who share one address, would see every preview wait
 * behind each other's in one lane. The URL acts for its signer, so it takes the signer's turns.
 */
export function inUserLane<T>(subject: string | null, fn: () => T): T {
  const current = currentRequestScope();
  if (subject === null || current === undefined) return fn();
  return withRequestScope({ ...current, lane: userLane(subject) }, fn);
}
