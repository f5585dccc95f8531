import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { PostgresError } from '../db/database.ts';
import { DatabaseUnavailableError, isPostgresError } from '../db/database.ts';
import { CpuPoolBusyError } from '../workers/cpu-pool.ts';
import type { CredentialsEnv } from './credentials.ts';

/**
 * An error a service answers with, rendering itself in that service's wire format (PostgREST's,
 * GoTrue's, Storage's, the functions gateway's). Thrown anywhere while a request is handled;
 * the app's `onError` (`respondToError`) sends `toResponse(c)`.
 */
export abstract class ApiError extends Error {
  abstract toResponse(c: Context): Response;
}

/** A shared resource gave no turn in time: the database, or the CPU pool's queue. */
export type Overload = DatabaseUnavailableError | CpuPoolBusyError;

/**
 * How one service answers, in its own format, what went wrong outside its own `ApiError`s: the
 * one place per service for each kind. What a format leaves out, or answers `null` to, is a bug:
 * logged, and answered with `internal()`.
 */
export interface ErrorFormat {
  /** No turn in time at the database or the CPU pool: a 503 with `Retry-After`. */
  overloaded?(error: Overload): ApiError;
  /** Any other error Postgres raised, a statement past its deadline (57014) included. */
  database?(error: PostgresError, c: Context<CredentialsEnv>): ApiError | null;
  /** Hono's `HTTPException`: a refusal by one of Hono's middleware. */
  http?(error: HTTPException): ApiError | null;
  /** The service's generic 500 for a bug; the client learns nothing about it. */
  internal(): ApiError;
}

/** What `errorFormat()` keeps on the Hono context: one part of the API's `ApiEnv`. */
export interface ErrorFormatEnv {
  Variables: { errorFormat?: ErrorFormat };
}

/** The API's own answer to a bug outside the services (and the SPA's). */
class InternalServerError extends ApiError {
  toResponse(c: Context): Response {
    return c.json({ code: 'unexpected_failure', message: this.message }, 500);
  }
}

const SERVER_ERRORS: ErrorFormat = {
  internal: () => new InternalServerError('Internal server error'),
};

/** `error` as the `ApiError` that `format` answers it with; `null` for a bug. */
function toApiError(
  error: Error,
  c: Context<CredentialsEnv>,
  format: ErrorFormat,
): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof DatabaseUnavailableError || error instanceof CpuPoolBusyError) {
    return format.overloaded?.(error) ?? null;
  }
  if (isPostgresError(error)) return format.database?.(error, c) ?? null;
  if (error instanceof HTTPException) return format.http?.(error) ?? null;
  return null;
}

/**
 * The app's `onError`, for every service: an `ApiError` renders itself; anything else is
 * answered in the format of the service that was handling the request (`errorFormat`), or as a
 * bug: logged whole here, and a generic 500 in that format.
 */
export function respondToError(
  error: Error,
  c: Context<{ Variables: ErrorFormatEnv['Variables'] & CredentialsEnv['Variables'] }>,
): Response {
  const format = c.var.errorFormat ?? SERVER_ERRORS;
  const known = toApiError(error, c, format);
  if (known) return known.toResponse(c);
  console.error(`${c.req.method} ${c.req.path} failed:`, error);
  return format.internal().toResponse(c);
}

/** Makes the app's `onError` answer the errors of this sub-app's requests in `format`. */
export function errorFormat(format: ErrorFormat): MiddlewareHandler<ErrorFormatEnv> {
  return (c, next) => {
    c.set('errorFormat', format);
    return next();
  };
}
