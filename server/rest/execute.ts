import type { Database } from '../db/database.ts';
import type { Caller, RequestSettings } from '../http/caller.ts';
import { callerSettingsStatement } from '../http/caller.ts';
import type { Prepared } from './handler-types.ts';
import type { ResultRow } from './respond.ts';

export interface ExecuteOptions {
  method: string;
  /** Path after `/rest/v1`, for `request.path`. */
  path: string;
  headers: Headers;
}

/**
 * Runs a prepared request as PostgREST does: one transaction as the caller (role, JWT claims,
 * method, path and headers set locally; READ ONLY for reads), then the one statement. The
 * response is built inside the transaction, so a failed check there rolls the writes back. The
 * settings and the statement go to the database as one batch (one round trip on PGlite).
 */
export function execute(
  db: Database,
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
  return db.runBatch(
    [callerSettingsStatement(caller, settings), { sql: prepared.sql, params: prepared.params }],
    (rows) => prepared.respond(rows[0] as unknown as ResultRow),
    { readOnly: prepared.readOnly },
  );
}
