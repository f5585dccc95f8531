import type { ErrorFormat } from '../http/api-error.ts';
import { ApiError } from '../http/api-error.ts';

/**
 * An answer of Steward's own link services (`/share/v1`, `/requests/v1`): `{error, message}`,
 * where `error` is a stable code for programs and `message` the sentence a person reads. The
 * database's refusals keep their own words (raised in supabase/schemas/21_share_links.sql and
 * 22_document_requests.sql), so the app shows what the database said.
 */
export class LinkError extends ApiError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toResponse(): Response {
    return Response.json(
      { error: this.code, message: this.message },
      { status: this.status, headers: this.headers },
    );
  }
}

/** What a link that does not work (any more) answers, whatever the reason: nothing to learn. */
export const SHARE_LINK_GONE = 'This link does not work. It may have expired or been revoked.';

export const linkErrors = {
  notFound: (message = SHARE_LINK_GONE) => new LinkError(404, 'link_not_found', message),
  invalid: (message: string) => new LinkError(400, 'invalid_request', message),
  notSignedIn: () => new LinkError(401, 'not_signed_in', 'Please sign in first'),
  wrongPassword: () => new LinkError(401, 'wrong_password', 'Wrong password'),
  accessExpired: () =>
    new LinkError(401, 'access_expired', 'This page has been open too long: open the link again'),
  rateLimited: (retryAfterSeconds: number, message = 'Too many requests. Please wait a moment.') =>
    new LinkError(429, 'too_many_requests', message, { 'Retry-After': String(retryAfterSeconds) }),
  tooLarge: (message: string) => new LinkError(413, 'too_large', message),
  storageFull: (message: string) => new LinkError(413, 'storage_full', message),
  unsupportedType: (message: string) => new LinkError(415, 'unsupported_file', message),
  aborted: () => new LinkError(499, 'aborted', 'The upload was cut off'),
  busy: (retryAfterSeconds: number) =>
    new LinkError(503, 'busy', 'The server is busy; please try again shortly', {
      'Retry-After': String(retryAfterSeconds),
    }),
};

/** The database's storage quota refusal (04_storage.sql), which keeps its SQLSTATE 42501. */
const QUOTA_REFUSAL = /^Your organization's storage is full/;

/**
 * The link services' answers to what is not a `LinkError`: the database's refusals with their
 * own text (`raise exception`: 400; a link that does not work, P0002: 404; a limit, PT429: 429;
 * the storage quota: 413; a refusal of the caller, 42501: 403), overload with when to retry.
 */
export const linkErrorFormat: ErrorFormat = {
  overloaded: (error) => linkErrors.busy(error.retryAfterSeconds),
  database: (error) => {
    switch (error.code) {
      case 'P0001':
        return linkErrors.invalid(error.message);
      case 'P0002':
        return linkErrors.notFound(error.message);
      case 'PT429':
        return linkErrors.rateLimited(60, error.message);
      case '42501':
        return QUOTA_REFUSAL.test(error.message)
          ? linkErrors.storageFull(error.message)
          : new LinkError(403, 'forbidden', error.message);
      default:
        return null;
    }
  },
  internal: () => new LinkError(500, 'unexpected_failure', 'Internal server error'),
};
