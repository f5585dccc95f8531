import { storageErrors } from './errors.ts';

/** S3's key limit, which the storage server inherits. */
export const MAX_OBJECT_NAME_BYTES = 1024;

// Control characters (C0, DEL, C1), bidirectional overrides and isolates (which can make a name
// display as something else), backslashes (a path separator elsewhere), and `?`/`#` (they end
// the path part of the URLs supabase-js builds, so such an object could never be fetched).
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\\?#]/;

/**
 * Checks an object name (the path inside its bucket) and returns it in Unicode NFC, so that
 * the same name typed on different systems is one object. Names are only ever database keys:
 * no file path is derived from them. They are still held to what a path should look like, so
 * that none is surprising in a listing or a URL: non-empty segments, no `.` or `..` segment, no
 * leading or trailing `/`, no control characters, at most 1024 bytes. Throws `InvalidKey`.
 */
export function validObjectName(name: string): string {
  const fail = () => storageErrors.invalidKey(printable(name));
  if (name.length === 0 || LONE_SURROGATE.test(name)) throw fail();
  const normalized = name.normalize('NFC');
  if (Buffer.byteLength(normalized, 'utf8') > MAX_OBJECT_NAME_BYTES) throw fail();
  if (FORBIDDEN_CHARACTERS.test(normalized)) throw fail();
  for (const segment of normalized.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw fail();
  }
  return normalized;
}

const FORBIDDEN_CHARACTERS_GLOBAL = new RegExp(FORBIDDEN_CHARACTERS.source, 'g');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** A refused name as it may be echoed in an error message: shortened, nothing invisible. */
function printable(name: string): string {
  const shown = name
    .replace(FORBIDDEN_CHARACTERS_GLOBAL, '\uFFFD')
    .replace(LONE_SURROGATES, '\uFFFD');
  return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
}

// The storage server's rule for bucket names (S3-safe characters), at most 100 characters.
const BUCKET_NAME = /^[A-Za-z0-9_!.*'() &$=@;:+,?-]{1,100}$/;

// First path segments the object routes give a meaning of their own: a bucket with one of
// these names could not be reached through `/object/{bucket}/…`.
const RESERVED_BUCKET_NAMES = new Set([
  'list',
  'sign',
  'public',
  'authenticated',
  'info',
  'move',
  'copy',
  'upload',
]);

/** Whether `id` can name a bucket (used for lookups, where an impossible name is "not found"). */
export function isValidBucketName(id: string): boolean {
  return BUCKET_NAME.test(id) && id.trim() === id && id !== '.' && id !== '..';
}

/** Checks the name of a bucket being created. Throws `InvalidBucketName`. */
export function validNewBucketName(id: unknown): string {
  if (typeof id !== 'string' || !isValidBucketName(id) || RESERVED_BUCKET_NAMES.has(id)) {
    throw storageErrors.invalidBucketName();
  }
  return id;
}

/**
 * Decodes the object path of a request URL (still percent-encoded, as sent) and checks it.
 * `%2F` becomes a `/`, as the storage server decodes the whole path; malformed escapes and
 * anything `validObjectName` refuses are `InvalidKey`.
 */
export function objectNameFromUrlPath(encoded: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    throw storageErrors.invalidKey(encoded);
  }
  return validObjectName(decoded);
}
