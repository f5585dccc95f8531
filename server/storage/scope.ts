import type { Context } from 'hono';
import type { BatchOptions, ScopedDatabase, Queryable, Row, Statement } from '../db/database.ts';
import type { ApiEnv } from '../http/api-env.ts';
import type { Caller } from '../http/caller.ts';
import { callerSettingsStatement } from '../http/caller.ts';
import { StorageError, storageErrorFromPostgres, storageErrors } from './errors.ts';
import type { UrlSigner } from './signed-url.ts';

/** Who is calling and what for: everything a statement run as the caller needs. */
export interface StorageScope {
  caller: Caller;
  /** The storage server's operation name, e.g. `storage.object.upload`; policies may read it. */
  operation: string;
  method: string;
  path: string;
  /** The request's headers (`request.headers` gets those the one rule in http/ passes). */
  headers: Headers;
}

function scopeFor(c: Context, caller: Caller, operation: string): StorageScope {
  return {
    caller,
    operation,
    method: c.req.method,
    path: c.req.path,
    headers: c.req.raw.headers,
  };
}

/**
 * The caller of a route that needs a valid token (every object and bucket route but the
 * public, signed and plain object downloads). A missing, invalid or expired token is
 * `AccessDenied`, as the storage server answers.
 */
export function requireCaller(c: Context<ApiEnv>, operation: string): StorageScope {
  const result = c.var.credentials.caller;
  if (!result.ok) throw storageErrors.accessDenied(result.message);
  if (result.caller.token === null) throw storageErrors.accessDenied('Invalid JWT');
  return scopeFor(c, result.caller, operation);
}

/**
 * The caller of `GET /object/{bucket}/{path}`, which serves public buckets without a token:
 * null when the token is missing or invalid.
 */
export function optionalCaller(c: Context<ApiEnv>, operation: string): StorageScope | null {
  const result = c.var.credentials.caller;
  if (!result.ok || result.caller.token === null) return null;
  return scopeFor(c, result.caller, operation);
}

/**
 * The scope of a request through a signed URL: the URL is no token of its own, so what it
 * reads or writes runs as its signer (role, user id and the assurance level of the session
 * that made it), under row-level security as the signer is now, not as they were when they
 * made it.
 */
export function signedUrlScope(c: Context, signer: UrlSigner, operation: string): StorageScope {
  const claims =
    signer.sub === null
      ? { role: signer.role, aal: signer.aal }
      : { role: signer.role, sub: signer.sub, aal: signer.aal };
  return scopeFor(c, { role: signer.role, claims, token: null }, operation);
}

/**
 * The statements that make a transaction run as the caller, as the storage server sets them:
 * role, JWT claims and request settings, then the storage operation and the claims' role and
 * subject. `readOnly` also makes the transaction READ ONLY.
 */
function callerStatements(scope: StorageScope, readOnly = false): Statement[] {
  const { caller } = scope;
  return [
    callerSettingsStatement(caller, {
      method: scope.method,
      path: scope.path,
      headers: scope.headers,
      readOnly,
    }),
    {
      sql: `select set_config('storage.operation', $1, true),
                set_config('storage.allow_delete_query', 'true', true),
                set_config('request.jwt.claim.role', $2, true),
                set_config('request.jwt.claim.sub', $3, true)`,
      params: [
        scope.operation,
        caller.role,
        typeof caller.claims.sub === 'string' ? caller.claims.sub : '',
      ],
    },
  ];
}

/** Postgres refusals become the storage server's errors. */
async function asStorageErrors<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof StorageError) throw error;
    throw storageErrorFromPostgres(error) ?? error;
  }
}

/**
 * Runs `fn` in one transaction as the caller (role, JWT claims and request settings set as the
 * storage server sets them), so that the row-level security policies on `storage.objects` and
 * `storage.buckets` decide. Postgres refusals become the storage server's errors. `asServer`
 * runs first in the same transaction with the server's own rights (e.g. giving back the
 * reservation of the upload whose object the caller's statement writes).
 */
export function runAsCaller<T>(
  db: ScopedDatabase,
  scope: StorageScope,
  fn: (tx: Queryable) => Promise<T>,
  asServer?: (tx: Queryable) => Promise<void>,
): Promise<T> {
  // asCaller's transaction, with room for the server's own statements before the role.
  return asStorageErrors(
    db.transaction(async (tx) => {
      await asServer?.(tx);
      for (const { sql, params } of callerStatements(scope)) await tx.query(sql, params);
      return fn(tx);
    }),
  );
}

/**
 * `runAsCaller` for work that is a fixed list of statements: the caller's settings and
 * `statements` go to the database together (`db.runBatch`: one round trip to the PGlite worker
 * or to PostgreSQL instead of one per statement, while the database is held for this request
 * alone), and `finish` gets the rows of the last statement. A writing batch commits when
 * `finish` returns and rolls back when it throws; a read-only one runs READ ONLY.
 */
export function batchAsCaller<T>(
  db: ScopedDatabase,
  scope: StorageScope,
  statements: Statement[],
  finish: (rows: Row[]) => T,
  options: BatchOptions,
): Promise<T> {
  return asStorageErrors(
    db.runBatch([...callerStatements(scope, options.readOnly), ...statements], finish, options),
  );
}

/**
 * `batchAsCaller` after one statement with the server's own rights (`first`, such as the lookup
 * of the bucket an upload goes to, which the caller's policies may not show), whose rows
 * `finish` gets instead of the last statement's: one round trip for both.
 */
export function batchAsCallerAfter<T>(
  db: ScopedDatabase,
  scope: StorageScope,
  first: Statement,
  statements: Statement[],
  finish: (rows: Row[]) => T,
  options: BatchOptions,
): Promise<T> {
  return asStorageErrors(
    db.runBatch([first, ...callerStatements(scope, options.readOnly), ...statements], finish, {
      ...options,
      rowsOf: 0,
    }),
  );
}

/** The `owner` (a uuid) and `owner_id` (any text) columns of rows the caller creates. */
export function ownerOf(scope: StorageScope): { owner: string | null; ownerId: string | null } {
  const sub = scope.caller.claims.sub;
  if (typeof sub !== 'string' || sub === '') return { owner: null, ownerId: null };
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(sub);
  return { owner: isUuid ? sub : null, ownerId: sub };
}
