import type { BatchEnd, ScopedDatabase, Statement } from '../db/database.ts';
import type { Caller, RequestSettings } from '../http/caller.ts';
import { callerSettingsStatement } from '../http/caller.ts';
import type { Prepared } from './handler-types.ts';
import type { ResultRow } from './respond.ts';

export interface ExecuteOptions {
  method: string;
  /** Path after `/rest/v1`, for `request.path`. */
  path: string;
  headers: Headers;
  /** `Prefer: timezone=`, already checked against `pg_timezone_names`. */
  timezone?: string;
  /** End the transaction with a rollback (`[api] db_tx_end`, `Prefer: tx=rollback`). */
  rollback: boolean;
}

/**
 * How a write's transaction ends, known from its answer's rows (database.ts `BatchEnd`): undone
 * when the request asked for that, else committed when `respond` accepts the number of rows.
 */
function writeEnd(prepared: Prepared, rollback: boolean): BatchEnd | undefined {
  if (rollback) return 'rollback';
  const pages = prepared.acceptedPages;
  return pages ? { commitIf: { column: 'page', ...pages } } : undefined;
}

/** Carries the response out of a transaction that must roll back although it succeeded. */
class RolledBack extends Error {
  constructor(readonly response: Response) {
    super('rolled back as the request asked');
  }
}

/**
 * Runs a prepared request as PostgREST does: one transaction as the caller (role, JWT claims,
 * method, path and headers set locally; READ ONLY for reads; the time zone the request asked
 * for), then the one statement. The response is built inside the transaction, so a failed check
 * there rolls the writes back. The settings and the statement go to the database as one batch
 * (one round trip on PGlite, and on PostgreSQL as one message group with one Sync).
 *
 * A transaction that is to roll back (PostgREST's `db-tx-end`) checks its deferred constraints
 * as it goes, as PostgREST's `SET CONSTRAINTS ALL IMMEDIATE` before its rollback, so the answer
 * reports what a commit would have refused; then the response is kept and the work undone.
 */
export async function execute(
  db: ScopedDatabase,
  caller: Caller,
  prepared: Prepared,
  options: ExecuteOptions,
): Promise<Response> {
  const settings: RequestSettings = {
    method: options.method,
    path: options.path,
    headers: options.headers,
    readOnly: prepared.readOnly,
  };
  const statements: Statement[] = [callerSettingsStatement(caller, settings)];
  if (options.timezone !== undefined) {
    statements.push({ sql: `select set_config('timezone', $1, true)`, params: [options.timezone] });
  }
  // A read-only transaction has nothing to undo.
  const rollback = options.rollback && !prepared.readOnly;
  if (rollback) statements.push({ sql: 'set constraints all immediate', params: [] });
  statements.push({ sql: prepared.sql, params: prepared.params });
  try {
    return await db.runBatch(
      statements,
      (rows) => {
        const response = prepared.respond(rows[0] as unknown as ResultRow);
        if (rollback) throw new RolledBack(response);
        return response;
      },
      {
        readOnly: prepared.readOnly,
        bytesColumn: 'body',
        ...(prepared.readOnly ? {} : { ends: writeEnd(prepared, rollback) }),
      },
    );
  } catch (error) {
    if (error instanceof RolledBack) return error.response;
    throw error;
  }
}
