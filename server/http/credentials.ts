import type { MiddlewareHandler } from 'hono';
import type { ApiRole, Caller } from './caller.ts';
import { API_ROLES } from './caller.ts';
import type { JwtClaims } from './jwt.ts';
import { JwtError, verifyJwt } from './jwt.ts';

/** A token's check: its claims when signature and expiry hold, else why they do not. */
export type TokenCheck = { ok: true; claims: JwtClaims } | { ok: false; error: JwtError };

/** The caller a token stands for, or why it stands for none. */
export type CallerResult =
  | { ok: true; caller: Caller }
  | { ok: false; reason: JwtError['reason'] | 'role'; message: string };

/**
 * What a request presents to say who it is, read and checked once per request by
 * `readCredentials` and kept on the context (`c.var.credentials`). Each service answers a bad
 * token with its own error, from these facts: PostgREST and Storage go by `caller`, GoTrue and
 * the functions gateway by the `Authorization` header and `verified`.
 */
export interface Credentials {
  /** The `Authorization` header: missing (or empty), `Bearer <token>`, or anything else. */
  authorization: 'missing' | 'bearer' | 'malformed';
  /** The token: the bearer token, else the `apikey` header; null when there is neither. */
  token: string | null;
  /** The token's signature and expiry check; null without a token. */
  verified: TokenCheck | null;
  /**
   * The role and claims the request runs as in the database: the token's, `anon` without a
   * token, as PostgREST and the storage server resolve them behind Supabase's gateway.
   */
  caller: CallerResult;
}

/** What `credentials()` keeps on the Hono context: one part of the API's `ApiEnv`. */
export interface CredentialsEnv {
  Variables: { credentials: Credentials };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

// Checked tokens, as PostgREST's JWT cache: a client sends the same token with every request,
// and checking its signature again each time is measurable on the hot path. Only tokens that
// verify are kept; the expiry is checked again on every use (with PostgREST's 30 s of skew).
const MAX_CACHED = 1000;
type Checked = Pick<Credentials, 'verified' | 'caller'>;
const verifiedTokens = new Map<string, Checked & { verified: { ok: true } }>();

function cached(key: string): Checked | null {
  const entry = verifiedTokens.get(key);
  if (!entry) return null;
  const exp = entry.verified.claims.exp;
  if (exp !== undefined && exp + 30 < Date.now() / 1000) {
    verifiedTokens.delete(key);
    return null;
  }
  return entry;
}

/** The caller of verified `claims`: their `role` (`anon` when absent), if the database has it. */
function callerOf(token: string, claims: JwtClaims): CallerResult {
  const role = claims.role ?? 'anon';
  if (!(API_ROLES as readonly unknown[]).includes(role)) {
    return { ok: false, reason: 'role', message: `role "${String(role)}" does not exist` };
  }
  return { ok: true, caller: { role: role as ApiRole, claims: { ...claims, role }, token } };
}

function checkToken(token: string, jwtSecret: string): Checked {
  const key = `${jwtSecret}\u0000${token}`;
  const hit = cached(key);
  if (hit) return hit;
  let claims: JwtClaims;
  try {
    claims = verifyJwt(token, jwtSecret);
  } catch (error) {
    if (!(error instanceof JwtError)) throw error;
    const { reason, message } = error;
    return { verified: { ok: false, error }, caller: { ok: false, reason, message } };
  }
  const entry = { verified: { ok: true as const, claims }, caller: callerOf(token, claims) };
  if (verifiedTokens.size >= MAX_CACHED) verifiedTokens.delete(verifiedTokens.keys().next().value!);
  verifiedTokens.set(key, entry);
  return entry;
}

/**
 * The caller of a request without a token: one object for all of them, so that its claims are
 * turned into JSON once (caller.ts keeps that text per claims object). Nothing changes a caller.
 */
const ANONYMOUS: Caller = Object.freeze({
  role: 'anon',
  claims: Object.freeze({ role: 'anon' }),
  token: null,
});

/**
 * Reads a request's credentials: `Authorization: Bearer …`, else the `apikey` header, checked
 * against `jwtSecret` (HS256, expiry with 30 s of skew) and resolved to a database caller.
 */
export function readCredentials(headers: Pick<Headers, 'get'>, jwtSecret: string): Credentials {
  const header = headers.get('authorization');
  const bearer = header ? (BEARER.exec(header)?.[1] ?? null) : null;
  const authorization = !header ? 'missing' : bearer ? 'bearer' : 'malformed';
  const token = bearer ?? headers.get('apikey') ?? null;
  if (!token) {
    return { authorization, token: null, verified: null, caller: { ok: true, caller: ANONYMOUS } };
  }
  return { authorization, token, ...checkToken(token, jwtSecret) };
}

/** Puts the request's credentials on the context, for every service of the API to read. */
export function credentials(jwtSecret: string): MiddlewareHandler<CredentialsEnv> {
  return (c, next) => {
    c.set('credentials', readCredentials(c.req.raw.headers, jwtSecret));
    return next();
  };
}
