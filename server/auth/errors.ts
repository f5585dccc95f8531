import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { randomUUID } from 'node:crypto';

export const API_VERSION_HEADER = 'X-Supabase-Api-Version';
/** The only dated API version GoTrue knows; auth-js sends it on every request. */
const API_VERSION_2024 = '2024-01-01';

/**
 * An error with GoTrue's status, error code and message. `extra` holds the fields GoTrue adds
 * beside them (for a weak password, `weak_password: {reasons}`).
 */
export class AuthError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
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

/**
 * The response for `error` as GoTrue sends it. With `X-Supabase-Api-Version: 2024-01-01` (or a
 * later date) the body is `{code, message}` and the header is echoed, which is what makes
 * auth-js read `error.code`; without it the body is the legacy `{code: <status>, error_code,
 * msg}`, plus `error_id` for 5xx.
 */
export function errorResponse(c: Context, error: AuthError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  c.header('x-sb-error-code', error.code);
  if (wantsDatedFormat(c.req.header(API_VERSION_HEADER))) {
    c.header(API_VERSION_HEADER, API_VERSION_2024);
    return c.json({ code: error.code, message: error.message, ...error.extra }, error.status);
  }
  const body: Record<string, unknown> = {
    code: error.status,
    error_code: error.code,
    msg: error.message,
    ...error.extra,
  };
  if (error.status >= 500) body.error_id = randomUUID();
  return c.json(body, error.status);
}
