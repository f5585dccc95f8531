import type { Database, Queryable } from '../db/database.ts';
import type { JwtClaims } from './jwt.ts';
import { JwtError, verifyJwt } from './jwt.ts';

export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const;
export type ApiRole = (typeof API_ROLES)[number];

/** Who is calling: the database role a request runs as and the claims of its token. */
export interface Caller {
  role: ApiRole;
  claims: JwtClaims;
  /** The bearer token as sent, when there was one. */
  token: string | null;
}

export type CallerResult =
  | { ok: true; caller: Caller }
  | { ok: false; reason: JwtError['reason'] | 'role'; message: string };

function bearer(authorization: string | null | undefined): string | null {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1]! : null;
}

// Verified tokens, as PostgREST's JWT cache: a client sends the same token with every request,
// and checking its signature again each time is measurable on the hot path. Only successes are
// kept; the expiry is checked again on every use (with PostgREST's 30 s of skew).
const MAX_CACHED = 1000;
const verified = new Map<string, Caller>();

function cached(key: string): Caller | null {
  const caller = verified.get(key);
  if (!caller) return null;
  const exp = caller.claims.exp;
  if (exp !== undefined && exp + 30 < Date.now() / 1000) {
    verified.delete(key);
    return null;
  }
  return caller;
}

function remember(key: string, caller: Caller): void {
  if (verified.size >= MAX_CACHED) verified.delete(verified.keys().next().value!);
  verified.set(key, caller);
}

/** The token a request carries: `Authorization: Bearer …`, else the `apikey` header. */
export function sentToken(headers: Headers): string | null {
  return bearer(headers.get('authorization')) ?? headers.get('apikey');
}

/**
 * Resolves the caller from `Authorization: Bearer …`, falling back to the `apikey` header, as
 * PostgREST and the storage server do behind Supabase's gateway. No token at all means `anon`.
 */
export function resolveCaller(headers: Headers, jwtSecret: string): CallerResult {
  const token = sentToken(headers);
  if (!token) return { ok: true, caller: { role: 'anon', claims: { role: 'anon' }, token: null } };
  const key = `${jwtSecret}\u0000${token}`;
  const hit = cached(key);
  if (hit) return { ok: true, caller: hit };
  let claims: JwtClaims;
  try {
    claims = verifyJwt(token, jwtSecret);
  } catch (error) {
    if (error instanceof JwtError)
      return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
  const role = claims.role ?? 'anon';
  if (!(API_ROLES as readonly string[]).includes(role as string)) {
    return { ok: false, reason: 'role', message: `role "${String(role)}" does not exist` };
  }
  const caller: Caller = { role: role as ApiRole, claims: { ...claims, role }, token };
  remember(key, caller);
  return { ok: true, caller };
}

export interface RequestSettings {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  /** Make the transaction READ ONLY (PostgREST does for GET and HEAD). */
  readOnly?: boolean;
}

const SETTINGS_SQL = `select set_config('role', $1, true),
              set_config('request.jwt.claims', $2, true),
              set_config('request.method', $3, true),
              set_config('request.path', $4, true),
              set_config('request.headers', $5, true)`;
// Going read-only is allowed at any point of a transaction (only the reverse is not).
const READ_ONLY_SQL = `, set_config('transaction_read_only', 'on', true)`;

/**
 * The one statement that makes a transaction run as `caller`, as PostgREST's per-request
 * `set_config(..., true)` calls: role, JWT claims, method, path, headers (and READ ONLY when
 * asked). Exported so that a driver-specific fast path can send it together with the request's
 * own statement; `asCaller` is the ordinary way to use it.
 */
export function callerSettingsStatement(
  caller: Caller,
  settings: RequestSettings = {},
): { sql: string; params: unknown[] } {
  return {
    sql: settings.readOnly ? SETTINGS_SQL + READ_ONLY_SQL : SETTINGS_SQL,
    params: [
      caller.role,
      JSON.stringify(caller.claims),
      settings.method ?? '',
      settings.path ?? '',
      JSON.stringify(settings.headers ?? {}),
    ],
  };
}

/**
 * Runs `fn` in one transaction as the caller, exactly as PostgREST does: the role and the JWT
 * claims are transaction-local settings, so row-level security and `auth.uid()` see them and
 * nothing leaks into the next request on the same connection.
 */
export function asCaller<T>(
  db: Database,
  caller: Caller,
  fn: (tx: Queryable) => Promise<T>,
  settings: RequestSettings = {},
): Promise<T> {
  return db.transaction(async (tx) => {
    const { sql, params } = callerSettingsStatement(caller, settings);
    await tx.query(sql, params);
    return fn(tx);
  });
}
