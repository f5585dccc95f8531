import { isPostgresError } from '../db/database.ts';
import type { ErrorFormat } from '../http/api-error.ts';
import { ApiError } from '../http/api-error.ts';

/**
 * An error the storage API answers with the storage server's body,
 * `{statusCode: "<real status>", code, error, message}` (supabase-compat.md §4.3).
 */
export class StorageError extends ApiError {
  constructor(
    /** The status the storage server reports in the body's `statusCode`. */
    readonly statusCode: number,
    readonly code: string,
    message: string,
    /** The legacy `error` label; the code when the storage server has none. */
    readonly label: string = code,
    /** Set when the HTTP status is the real one rather than the usual 400 (role checks, ranges). */
    readonly explicitHttpStatus?: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The storage server sends HTTP 400 for every client error; only 5xx keep their status. */
  get httpStatus(): number {
    if (this.explicitHttpStatus !== undefined) return this.explicitHttpStatus;
    return this.statusCode >= 500 ? this.statusCode : 400;
  }

  toJSON() {
    return {
      statusCode: String(this.statusCode),
      code: this.code,
      error: this.label,
      message: this.message,
    };
  }

  toResponse(): Response {
    return Response.json(this.toJSON(), { status: this.httpStatus, headers: this.headers });
  }
}

/** The storage server's errors, with its codes, labels and message texts. */
export const storageErrors = {
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  accessDenied: (message = 'Access denied') =>
    new StorageError(403, 'AccessDenied', message, 'Unauthorized'),
  /** A role check: the one client error the storage server sends with its real status. */
  roleDenied: (message: string) =>
    new StorageError(403, 'AccessDenied', message, 'Unauthorized', 403),
  rlsDenied: () =>
    new StorageError(
      403,
      'AccessDenied',
      'new row violates row-level security policy',
      'Unauthorized',
    ),
  keyAlreadyExists: () =>
    new StorageError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () =>
    new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () =>
    new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  invalidJwt: (message = 'Invalid JWT') => new StorageError(400, 'InvalidJWT', message),
  invalidSignature: (message = 'Invalid signature') =>
    new StorageError(400, 'InvalidSignature', message),
  entityTooLarge: (entity = 'object') =>
    new StorageError(
      413,
      'EntityTooLarge',
      `The ${entity} exceeded the maximum allowed size`,
      'Payload too large',
    ),
  invalidMimeType: (mimeType: string) =>
    new StorageError(
      415,
      'InvalidMimeType',
      `mime type ${mimeType} is not supported`,
      'invalid_mime_type',
    ),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  invalidBucketName: () =>
    new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  invalidRequest: (message: string) => new StorageError(400, 'InvalidRequest', message),
  invalidRange: () =>
    new StorageError(416, 'InvalidRange', 'invalid range provided', 'invalid_range', 416),
  noContent: () => new StorageError(400, 'InvalidRequest', 'No content provided'),
  routeNotFound: (method: string, path: string) =>
    new StorageError(404, 'NotFound', `Route ${method}:${path} not found`, 'Not Found', 404),
  featureNotEnabled: (feature: string) =>
    new StorageError(
      409,
      'FeatureNotEnabled',
      `The feature ${feature} is not enabled for this resource`,
    ),
  internal: () => new StorageError(500, 'InternalError', 'Internal server error', 'internal'),
  /** No turn at the database in time: Storage's answer to overload, with when to retry. */
  slowDown: (retryAfterSeconds: number) =>
    new StorageError(
      503,
      'SlowDown',
      'Please reduce your request rate',
      'Service Unavailable',
      undefined,
      { 'Retry-After': String(retryAfterSeconds) },
    ),
};

/**
 * Maps what Postgres said about a statement run as the caller to the storage server's error,
 * or returns undefined when the error is not a client's doing (then it is a bug to log).
 */
export function storageErrorFromPostgres(error: unknown): StorageError | undefined {
  if (!isPostgresError(error)) return undefined;
  switch (error.code) {
    case '42501': // insufficient_privilege: RLS refused the row, no grant, or a check's refusal
      // As the storage server does: RLS gets its fixed text, anything else keeps its own (the
      // storage quota trigger raises 42501 so that its message reaches the client).
      return error.message.includes('row-level security')
        ? storageErrors.rlsDenied()
        : storageErrors.accessDenied(error.message);
    case '23505': // unique_violation on (bucket_id, name)
      return storageErrors.keyAlreadyExists();
    case '23503': // foreign_key_violation: the bucket is gone
      return storageErrors.noSuchBucket();
    case '22P02': // invalid_text_representation
    case '22001': // string_data_right_truncation
    case '22021': // character_not_in_repertoire
    case '54000': // program_limit_exceeded (e.g. an index row too large for a huge name)
      return storageErrors.invalidRequest(error.message);
    case 'P0001': // raise exception in a policy helper: the helper's text is meant for the user
      return storageErrors.accessDenied(error.message);
    default:
      return undefined;
  }
}

/**
 * Storage's answers to what is not a `StorageError`. Postgres' refusals of statements run as the
 * caller become the storage server's errors where they are raised (`runAsCaller`); any other
 * database error, a statement past its deadline included, is the server's failure.
 */
export const storageErrorFormat: ErrorFormat = {
  overloaded: (error) => storageErrors.slowDown(error.retryAfterSeconds),
  internal: () => storageErrors.internal(),
};
