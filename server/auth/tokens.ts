import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { JwtClaims } from '../http/jwt.ts';
import { signJwt } from '../http/jwt.ts';
import type { UserRecord } from './users.ts';
import type { JsonObject } from './validation.ts';

/** How a session was signed in: GoTrue's authentication methods, as the `amr` claim names them. */
export type AuthMethod = 'password' | 'otp' | 'recovery' | 'totp';

/** One entry of the `amr` claim: a method and when it was used (Unix seconds). */
export interface AmrEntry {
  method: string;
  timestamp: number;
}

/** The session a new access token belongs to. */
export interface TokenSession {
  id: string;
  /** When the session began (Unix seconds). */
  createdAt: number;
  /** `aal2` once a second factor was verified in this session. */
  aal: 'aal1' | 'aal2';
  /** The methods used in this session, most recent first (GoTrue's order). */
  amr: AmrEntry[];
}

export interface AccessToken {
  token: string;
  /** Unix seconds. */
  expiresAt: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Signs an access token with exactly the claims GoTrue issues (HS256, `aud` a string, `aal`
 * and `amr` as the session records them).
 */
export function issueAccessToken(
  ctx: AppContext,
  user: UserRecord,
  session: TokenSession,
): AccessToken {
  const issuedAt = nowSeconds();
  const expiresAt = issuedAt + ctx.config.auth.jwtExpiry;
  const claims: JwtClaims = {
    iss: `${ctx.publicUrl()}/auth/v1`,
    sub: user.id,
    aud: user.aud ?? 'authenticated',
    exp: expiresAt,
    iat: issuedAt,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role ?? 'authenticated',
    aal: session.aal,
    amr: session.amr,
    session_id: session.id,
    is_anonymous: user.is_anonymous,
  };
  return { token: signJwt(claims, ctx.keys.jwtSecret), expiresAt };
}

/** The body of a successful `/token` (or auto-confirmed `/signup`) response. */
export function sessionResponse(
  access: AccessToken,
  refreshToken: string,
  user: JsonObject,
  weakPassword?: { reasons: string[]; message: string },
): JsonObject {
  return {
    access_token: access.token,
    token_type: 'bearer',
    expires_in: access.expiresAt - nowSeconds(),
    expires_at: access.expiresAt,
    refresh_token: refreshToken,
    user,
    ...(weakPassword ? { weak_password: weakPassword } : {}),
  };
}

/** A new session's first refresh token: 256 random bits, URL-safe. */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The token that replaces `parent` when it is rotated. It is derived from the parent with a key
 * only the server has, so the server can tell a client that presents a just-rotated token
 * which token is now current (the reuse interval) without keeping any token readable in the
 * database.
 */
export function childRefreshToken(jwtSecret: string, parent: string): string {
  const key = createHmac('sha256', jwtSecret).update('steward refresh-token rotation').digest();
  return createHmac('sha256', key).update(parent).digest('base64url');
}

/**
 * What `auth.refresh_tokens.token` stores: a SHA-256 digest, so a copy of the database alone
 * holds no token that can be refreshed. The tokens carry 256 bits, so no salt or slow hash is
 * needed.
 */
export function refreshTokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Refresh tokens this server issues: 43 URL-safe characters. Anything else cannot be one. */
export const REFRESH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
