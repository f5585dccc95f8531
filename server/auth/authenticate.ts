import type { Context } from 'hono';
import type { ApiEnv } from '../http/api-env.ts';
import type { JwtClaims } from '../http/jwt.ts';
import { AuthError, badRequest, forbidden } from './errors.ts';
import { findSession } from './sessions.ts';
import type { UserRecord } from './users.ts';
import { findUserById } from './users.ts';
import { isUuid } from './validation.ts';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * The claims of the request's bearer token: GoTrue's 401 `no_authorization` without
 * `Authorization: Bearer …` (the `apikey` header does not count here), 403 `bad_jwt` when the
 * token's signature or expiry does not hold.
 */
export function verifiedClaims(c: Context<ApiEnv>): JwtClaims {
  const { authorization, verified } = c.var.credentials;
  if (authorization !== 'bearer' || !verified) {
    throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  }
  if (!verified.ok) {
    throw forbidden(
      'bad_jwt',
      `invalid JWT: unable to parse or verify signature, ${verified.error.message}`,
    );
  }
  return verified.claims;
}

export interface SignedInCaller {
  user: UserRecord;
  /** The session the token belongs to; `null` for a token issued without one. */
  sessionId: string | null;
  claims: JwtClaims;
}

/**
 * GoTrue's `requireAuthentication`: a valid access token whose user exists and whose session
 * has not been ended by a logout. A token still within its lifetime is refused once its
 * session is gone, which is how `/user` learns of a logout.
 */
export async function requireSignedIn(c: Context<ApiEnv>): Promise<SignedInCaller> {
  const claims = verifiedClaims(c);
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '') {
    throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  }
  if (!isUuid(sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(c.get('db'), sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');

  let sessionId: string | null = null;
  const claimed = claims.session_id;
  if (claimed !== undefined && claimed !== null && claimed !== '' && claimed !== NIL_UUID) {
    if (!isUuid(claimed)) {
      throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    }
    if (!(await findSession(c.get('db'), claimed))) {
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    sessionId = claimed;
  }
  if (user.is_banned) throw forbidden('user_banned', 'User is banned');
  return { user, sessionId, claims };
}

/**
 * GoTrue's admin check: a valid token whose role is `service_role` (the service-role key).
 * Anyone else, a signed-in user included, gets 403 `not_admin`.
 */
export function requireServiceRole(c: Context<ApiEnv>): void {
  const claims = verifiedClaims(c);
  if (claims.role !== 'service_role') throw forbidden('not_admin', 'User not allowed');
}
