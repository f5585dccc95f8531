import type { Context, MiddlewareHandler } from 'hono';
import type { Database, ScopedDatabase } from '../db/database.ts';
import type { RequestScope } from '../db/request-scope.ts';
import type { ApiEnv } from './api-env.ts';
import { clientAddress } from './client-address.ts';

/** What `requestScope()` keeps on the Hono context: one part of the API's `ApiEnv`. */
export interface RequestScopeEnv {
  Variables: {
    /** The request's scope (db/request-scope.ts). */
    scope: RequestScope;
    /** The database, its work in the request's scope: the only way a service reaches it. */
    db: ScopedDatabase;
  };
}

/**
 * Puts every API request in its scope (db/request-scope.ts): the database takes turns between
 * lanes, one per signed-in user, one per client address for everyone else, and one for the
 * service role. The time limit of REST requests, whose statements the caller shapes, follows
 * the caller's role, as on Supabase; the other services run statements of the server's own
 * making and have the service role's limit. A token that does not verify counts as anonymous
 * here (the service then refuses it with its own error). Runs after `credentials()`; the
 * services reach the database through `c.get('db')`, a handle carrying this scope.
 */
export function requestScope(db: Database): MiddlewareHandler<ApiEnv> {
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
    const scope: RequestScope = { lane, role };
    c.set('scope', scope);
    c.set('db', db.scoped(scope));
    return next();
  };
}

/** The lane of a signed-in user's database work. */
const userLane = (subject: string) => `user:${subject}`;

/**
 * The request's database in the lane of user `subject` (null: the request's own). A signed URL
 * carries no token: without this its work would take the turns of the address it is fetched
 * from, and the staff of a church, who share one address, would see every preview wait behind
 * each other's in one lane. The URL acts for its signer, so it takes the signer's turns.
 */
export function inUserLane(c: Context<ApiEnv>, subject: string | null): ScopedDatabase {
  const db = c.get('db');
  if (subject === null) return db;
  return db.database.scoped({ ...c.get('scope'), lane: userLane(subject) });
}
