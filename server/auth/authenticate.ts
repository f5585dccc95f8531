import type { Context } from 'hono';
import type { AppContext } from '../context.ts';
import type { JwtClaims } from '../http/jwt.ts';
import { JwtError, verifyJwt } from '../http/jwt.ts';
import { AuthError, badRequest, forbidden } from './errors.ts';
import { findSession } from './sessions.ts';
import type { UserRecord } from './users.ts';
import { findUserById } from './users.ts';
import { isUuid } from './validation.ts';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** The bearer token of the request, or GoTrue's 401 `no_authorization`. */
function bearerToken(c: Context): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
  if (!match) {
    throw new AuthError(401, 'no_authorization', 'This endpoint requires a valid Bearer token');
  }
  return match[1]!;
}

/** Verifies the bearer token's signature and expiry (403 `bad_jwt` otherwise). */
export function verifiedClaims(c: Context, ctx: AppContext): JwtClaims {
  const token = bearerToken(c);
  try {
    return verifyJwt(token, ctx.keys.jwtSecret);
  } catch (error) {
    if (!(error instanceof JwtError)) throw error;
    throw forbidden(
      'bad_jwt',
      `invalid JWT: unable to parse or verify signature, ${error.message}`,
    );
  }
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
export async function requireSignedIn(c: Context, ctx: AppContext): Promise<SignedInCaller> {
  const claims = verifiedClaims(c, ctx);
  const sub = claims.sub;
  if (typeof sub !== 'string' || sub === '') {
    throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  }
  if (!isUuid(sub)) throw badRequest('bad_jwt', 'invalid claim: sub claim must be a UUID');
  const user = await findUserById(ctx.db, sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');

  let sessionId: string | null = null;
  const claimed = claims.session_id;
  if (claimed !== undefined && claimed !== null && claimed !== '' && claimed !== NIL_UUID) {
    if (!isUuid(claimed)) {
      throw forbidden('bad_jwt', 'invalid claim: session_id claim must be a UUID');
    }
    if (!(await findSession(ctx.db, claimed))) {
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
export function requireServiceRole(c: Context, ctx: AppContext): void {
  const claims = verifiedClaims(c, ctx);
  if (claims.role !== 'service_role') throw forbidden('not_admin', 'User not allowed');
}
