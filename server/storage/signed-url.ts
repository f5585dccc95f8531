import { createHmac } from 'node:crypto';
import { JwtError, signJwt, verifyJwt } from '../http/jwt.ts';
import { StorageError, storageErrors } from './errors.ts';

const DOWNLOAD_SCOPE = 'download';
const UPLOAD_SCOPE = 'upload';
/** Lifetime of a signed upload URL, as on Supabase. */
const UPLOAD_URL_SECONDS = 2 * 3600;
/** Ten years: a signed URL is a bearer credential, not a permanent link. */
const MAX_EXPIRES_IN = 10 * 365 * 24 * 3600;

/**
 * The key signed-URL tokens are signed with, derived from the server's JWT secret. Being a
 * different key, a signed-URL token is never accepted as an API token, nor an API token as a
 * signed URL.
 */
export function urlSigningKey(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('steward storage signed URLs').digest('base64url');
}

/** `expiresIn` of a sign request: whole seconds, at least 1. Throws `InvalidParameter`. */
export function validExpiresIn(value: unknown): number {
  const seconds = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : NaN;
  if (!(seconds >= 1 && seconds <= MAX_EXPIRES_IN)) {
    throw new StorageError(400, 'InvalidParameter', 'Invalid Parameter expiresIn');
  }
  return seconds;
}

/**
 * The `signedURL` storage-js expects: relative to `/storage/v1`, with the token, which is an
 * HS256 JWT `{url: "bucket/name", scope, iat, exp}` as the storage server issues.
 */
export function signedObjectUrl(
  key: string,
  bucketId: string,
  name: string,
  expiresIn: number,
  now = Math.floor(Date.now() / 1000),
): string {
  const url = `${bucketId}/${name}`;
  const token = signJwt({ url, scope: DOWNLOAD_SCOPE, iat: now, exp: now + expiresIn }, key);
  return `/object/sign/${url}?token=${token}`;
}

/** The claims of a verified signed-URL token. */
interface SignedClaims {
  url?: unknown;
  scope?: unknown;
  owner?: unknown;
  upsert?: unknown;
}

function verifyToken(
  key: string,
  token: string,
  scope: string,
  bucketId: string,
  name: string,
  now: number,
): SignedClaims {
  let claims;
  try {
    // Expiry is checked below, exactly; verifyJwt would allow 30 s of skew.
    claims = verifyJwt(token, key, -Infinity) as SignedClaims & { exp?: unknown };
  } catch (error) {
    if (error instanceof JwtError) throw storageErrors.invalidJwt(`Invalid JWT: ${error.message}`);
    throw error;
  }
  if (typeof claims.exp !== 'number' || claims.exp <= now) {
    throw storageErrors.invalidJwt('"exp" claim timestamp check failed');
  }
  if (claims.scope !== scope)
    throw storageErrors.invalidSignature(`Token is not scoped for ${scope}`);
  if (claims.url !== `${bucketId}/${name}`) throw storageErrors.invalidSignature();
  return claims;
}

/**
 * Checks a signed-URL token for `bucketId/name`: a bad or expired token is `InvalidJWT`, a
 * token for another object or for uploading `InvalidSignature`. Expiry is exact, without skew.
 */
export function verifySignedObjectUrl(
  key: string,
  token: string,
  bucketId: string,
  name: string,
  now = Date.now() / 1000,
): void {
  verifyToken(key, token, DOWNLOAD_SCOPE, bucketId, name, now);
}

/**
 * A signed upload URL (`createSignedUploadUrl`): lets whoever holds it upload `bucketId/name`
 * once, as `owner`, for two hours.
 */
export function signedUploadUrl(
  key: string,
  bucketId: string,
  name: string,
  owner: string | null,
  upsert: boolean,
  now = Math.floor(Date.now() / 1000),
): { url: string; token: string } {
  const url = `${bucketId}/${name}`;
  const token = signJwt(
    { owner, url, upsert, scope: UPLOAD_SCOPE, iat: now, exp: now + UPLOAD_URL_SECONDS },
    key,
  );
  return { url: `/object/upload/sign/${url}?token=${token}`, token };
}

/** Checks a signed upload URL's token; returns who uploads and whether it may replace. */
export function verifySignedUploadUrl(
  key: string,
  token: string,
  bucketId: string,
  name: string,
  now = Date.now() / 1000,
): { owner: string | null; upsert: boolean } {
  const claims = verifyToken(key, token, UPLOAD_SCOPE, bucketId, name, now);
  return {
    owner: typeof claims.owner === 'string' ? claims.owner : null,
    upsert: claims.upsert === true,
  };
}
