import type { ScopedDatabase, Queryable } from '../db/database.ts';
import type { JwtClaims } from './jwt.ts';
import { postgresHeaders } from './request-headers.ts';

export const API_ROLES = ['anon', 'authenticated', 'service_role'] as const;
export type ApiRole = (typeof API_ROLES)[number];

/** Who is calling: the database role a request runs as and the claims of its token. */
export interface Caller {
  role: ApiRole;
  claims: JwtClaims;
  /** The bearer token as sent, when there was one. */
  token: string | null;
}

export interface RequestSettings {
  method?: string;
  path?: string;
  /** The request's headers; `request.headers` gets those `postgresHeaders` passes. */
  headers?: Headers;
  /** Make the transaction READ ONLY (PostgREST does for GET and HEAD). */
  readOnly?: boolean;
}

const SETTINGS_SQL = `select set_config('role', $1, true),
              set_config('request.jwt.claims', $2, true),
              set_config('request.method', $3, true),
              set_config('request.path', $4, true),
              set_config('request.headers', $5, true)`;
// Going read-only is allowed at any point of a transaction (only the reverse is not). One
// constant string, not a concatenation per request: the connection's prepared statements are
// looked up by their text (db/prepared-names.ts), and a new string is hashed anew.
const READ_ONLY_SETTINGS_SQL = `${SETTINGS_SQL}, set_config('transaction_read_only', 'on', true)`;

// A caller's claims as `request.jwt.claims` holds them, kept per claims object: a signed-in
// client's requests share one (credentials.ts keeps a checked token's caller), and turning them
// into JSON again on every request was measurable on the REST hot path.
const claimsJson = new WeakMap<JwtClaims, string>();

function claimsText(claims: JwtClaims): string {
  let text = claimsJson.get(claims);
  if (text === undefined) claimsJson.set(claims, (text = JSON.stringify(claims)));
  return text;
}

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
    sql: settings.readOnly ? READ_ONLY_SETTINGS_SQL : SETTINGS_SQL,
    params: [
      caller.role,
      claimsText(caller.claims),
      settings.method ?? '',
      settings.path ?? '',
      JSON.stringify(settings.headers ? postgresHeaders(settings.headers) : {}),
    ],
  };
}

/**
 * Runs `fn` in one transaction as the caller, exactly as PostgREST does: the role and the JWT
 * claims are transaction-local settings, so row-level security and `auth.uid()` see them and
 * nothing leaks into the next request on the same connection.
 */
export function asCaller<T>(
  db: ScopedDatabase,
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
