import type { Context } from 'hono';
import type { PostgresError } from '../db/database.ts';
import type { CredentialsEnv } from '../http/credentials.ts';
import type { ErrorFormat } from '../http/api-error.ts';
import { ApiError } from '../http/api-error.ts';
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
 * Thrown anywhere while a request is parsed, planned or run; it renders itself.
 */
export class RestError extends ApiError {
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

  /** The error as PostgREST sends it: JSON body (none for HEAD), status, extra headers. */
  toResponse(c: Context): Response {
    const headers = new Headers({
      'Content-Type': 'application/json; charset=utf-8',
      'Proxy-Status': `PostgREST; error=${this.code}`,
    });
    for (const [name, value] of Object.entries(this.headers)) headers.set(name, value);
    const head = c.req.method === 'HEAD';
    return new Response(head ? null : JSON.stringify(this.body()), {
      status: this.status,
      headers,
    });
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
 * The PostgREST error for what Postgres raised: its code, message, detail and hint pass through,
 * with the status of the SQLSTATE mapping (a statement past its deadline, 57014, is a 500).
 */
export function fromDatabaseError(error: PostgresError, role: ApiRole): RestError {
  const status = statusForSqlState(error.code, error.message, role);
  return new RestError(status, error.code, error.message, {
    details: error.detail || null,
    hint: error.hint || null,
    headers: status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {},
  });
}

/** The role a request ran as, for the status of 42501 (401 for `anon`, 403 otherwise). */
function roleOf(c: Context<CredentialsEnv>): ApiRole {
  const { caller } = c.var.credentials;
  return caller.ok ? caller.caller.role : 'anon';
}

/** REST's answers to what is not a `RestError`, in PostgREST's format. */
export const restErrors: ErrorFormat = {
  // Postgres' "cannot connect now", as PostgREST answers when it has no connection to give.
  overloaded: (error) =>
    new RestError(503, '57P03', error.message, {
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    }),
  database: (error, c) => fromDatabaseError(error, roleOf(c)),
  internal: () => new RestError(500, 'unexpected_failure', 'Internal server error'),
};
