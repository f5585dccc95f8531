import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { randomUUID } from 'node:crypto';
import type { ErrorFormat } from '../http/api-error.ts';
import { ApiError } from '../http/api-error.ts';

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
/** The only dated API version GoTrue knows; auth-js sends it on every request. */
const API_VERSION_2024 = '2024-01-01';

/**
 * An error with GoTrue's status, error code and message. `extra` holds the fields GoTrue adds
 * beside them (for a weak password, `weak_password: {reasons}`).
 */
export class AuthError extends ApiError {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /**
   * The error as GoTrue sends it. With `X-Supabase-Api-Version: 2024-01-01` (or a later date)
   * the body is `{code, message}` and the header is echoed, which is what makes auth-js read
   * `error.code`; without it the body is the legacy `{code: <status>, error_code, msg}`, plus
   * `error_id` for 5xx.
   */
  toResponse(c: Context): Response {
    for (const [name, value] of Object.entries(this.headers)) c.header(name, value);
    c.header('x-sb-error-code', this.code);
    if (wantsDatedFormat(c.req.header(API_VERSION_HEADER))) {
      c.header(API_VERSION_HEADER, API_VERSION_2024);
      return c.json({ code: this.code, message: this.message, ...this.extra }, this.status);
    }
    const body: Record<string, unknown> = {
      code: this.status,
      error_code: this.code,
      msg: this.message,
      ...this.extra,
    };
    if (this.status >= 500) body.error_id = randomUUID();
    return c.json(body, this.status);
  }
}

export const badRequest = (code: string, message: string) => new AuthError(400, code, message);
export const forbidden = (code: string, message: string) => new AuthError(403, code, message);
export const unprocessable = (code: string, message: string) => new AuthError(422, code, message);
export const unexpected = (message: string) => new AuthError(500, 'unexpected_failure', message);

/** `invalid_credentials` "Invalid login credentials": the same answer for every failed sign-in. */
export const invalidCredentials = () =>
  badRequest('invalid_credentials', 'Invalid login credentials');

/**
 * Whether the request asked for the dated error format. GoTrue reads the header as a date and
 * falls back to the initial (legacy) format when it is missing or not a date.
 */
function wantsDatedFormat(header: string | undefined): boolean {
  if (!header || !/^\d{4}-\d{2}-\d{2}$/.test(header)) return false;
  const date = new Date(`${header}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== header) return false;
  return header >= API_VERSION_2024;
}

/** GoTrue's answers to what is not an `AuthError`. */
export const authErrors: ErrorFormat = {
  // More password checks are waiting than the pool queues, or the database gave no turn in
  // time: not the client's fault, and soon over. GoTrue has no such state; its answer to
  // overload is the rate limit's code.
  overloaded: (error) =>
    new AuthError(
      503,
      'over_request_rate_limit',
      error.message,
      {},
      { 'Retry-After': String(error.retryAfterSeconds) },
    ),
  // A refusal by Hono's middleware is the client's mistake; GoTrue calls those validation.
  http: (error) =>
    error.status < 500 ? new AuthError(error.status, 'validation_failed', error.message) : null,
  internal: () => unexpected('Unexpected failure, please check server logs for more information'),
};
