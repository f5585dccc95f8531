import { DatabaseUnavailableError, isPostgresError } from '../db/database.ts';
import type { ApiRole } from '../http/caller.ts';

/** The body PostgREST sends for every error: absent fields are `null`. */
export interface RestErrorBody {
  code: string;
  message: string;
  details: unknown;
  hint: unknown;
}

/**
 * A client-facing PostgREST error: HTTP status plus the `{code, message, details, hint}` body.
 * Thrown anywhere while a request is parsed, planned or run; `routes.ts` turns it into a response.
 */
export class RestError extends Error {
  readonly details: unknown;
  readonly hint: unknown;
  readonly headers: Record<string, string>;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: { details?: unknown; hint?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.details = options.details ?? null;
    this.hint = options.hint ?? null;
    this.headers = options.headers ?? {};
  }

  body(): RestErrorBody {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/**
 * A request the schema cache could not resolve (unknown table, column, function or
 * relationship). The cache may be stale, so the router reloads it once and retries before
 * answering with the wrapped error.
 */
export class SchemaMissError extends RestError {}

/** PGRST100: a query parameter that does not parse. */
export function parseError(what: string, input: string, column: number, details: string) {
  return new RestError(
    400,
    'PGRST100',
    `"failed to parse ${what} (${input})" (line 1, column ${column})`,
    {
      details,
    },
  );
}

/** PGRST102: a request body that is not what the endpoint takes. */
export const invalidBody = (message: string) => new RestError(400, 'PGRST102', message);

/** Postgres' own error for an unknown column, produced before the statement is sent. */
export function columnNotFound(table: string, column: string): SchemaMissError {
  return new SchemaMissError(400, '42703', `column ${table}.${column} does not exist`);
}

/** SQLSTATE → HTTP status, as PostgREST maps it (supabase-compat.md §3.7). */
export function statusForSqlState(code: string, message: string, role: ApiRole): number {
  switch (code) {
    case '23503':
    case '23505':
      return 409;
    case '25006':
      return 405;
    case '21000':
      return message.endsWith('requires a WHERE clause') ? 400 : 500;
    case '22023':
      return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400;
    case '53400':
      return 500;
    case '57P01':
    case '57P03':
      return 503;
    case 'P0001':
      return 400;
    case '42883':
      return 404;
    case '42P01':
      return 404;
    case '42P17':
      return 500;
    case '42501':
      return role === 'anon' ? 401 : 403;
  }
  const prefix = code.slice(0, 2);
  // Deviation from PostgREST (which answers 500): class 54 is "input too large or too deeply
  // nested" (array dimensions, stack depth, statement complexity, too many columns, embedded
  // rows past max_rows). Every statement here is generated from the request, so the request
  // is what is too big: a client error.
  if (prefix === '54') return 400;
  switch (prefix) {
    case '08':
      return 503;
    case '09':
    case '25':
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'XX':
      return 500;
    case '0L':
    case '0P':
    case '28':
      return 403;
    case '53':
      return 503;
  }
  if (prefix === 'P0') return 500;
  if (prefix === 'PT') {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500;
  }
  return 400;
}

/**
 * Turns an error thrown by the database into the PostgREST response for it: Postgres' code,
 * message, detail and hint pass through, with the status of the SQLSTATE mapping. Anything
 * that is not a Postgres error is a bug and is rethrown for the app's 500 handler.
 */
export function fromDatabaseError(error: unknown, role: ApiRole): RestError {
  if (error instanceof RestError) return error;
  if (!isPostgresError(error)) throw error;
  const status = statusForSqlState(error.code, error.message, role);
  const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
  if (error instanceof DatabaseUnavailableError) {
    headers['Retry-After'] = String(error.retryAfterSeconds);
  }
  return new RestError(status, error.code, error.message, {
    details: error.detail || null,
    hint: error.hint || null,
    headers,
  });
}
