import { createHmac, randomUUID } from 'node:crypto';
import type { ApiRole, Caller } from '../http/caller.ts';
import { API_ROLES } from '../http/caller.ts';
import { JwtError, signJwt, verifyJwt } from '../http/jwt.ts';
import { StorageError, storageErrors } from './errors.ts';

const DOWNLOAD_SCOPE = 'download';
const UPLOAD_SCOPE = 'upload';
/** Lifetime of a signed upload URL, as on Supabase (unless the installation allows less). */
const UPLOAD_URL_SECONDS = 2 * 3600;

/** The assurance level of the session that made a signed URL (its token's `aal` claim). */
export type Assurance = 'aal1' | 'aal2';

/**
 * Who made a signed URL. The URL does what its signer may do when it is used, not when it was
 * made: reads and writes through it run as the signer under row-level security, so a signer
 * who is deactivated or leaves the organisation takes the URL's rights along. It carries the
 * assurance level of the signer's session: a URL made in a session that proved a second factor
 * works where the database asks one of the signer, one made without does not.
 */
export interface UrlSigner {
  role: ApiRole;
  /** The signer's user id (`sub`); null for the anon and service-role keys. */
  sub: string | null;
  aal: Assurance;
}

const assurance = (aal: unknown): Assurance => (aal === 'aal2' ? 'aal2' : 'aal1');

/** The signer of a URL made by `caller`: `role`, `sub` and `aal` go into the token. */
export function signerOf(caller: Caller): UrlSigner {
  const sub = caller.claims.sub;
  return {
    role: caller.role,
    sub: typeof sub === 'string' && sub !== '' ? sub : null,
    aal: assurance(caller.claims.aal),
  };
}

/**
 * The key signed-URL tokens are signed with, derived from the server's JWT secret. Being a
 * different key, a signed-URL token is never accepted as an API token, nor an API token as a
 * signed URL.
 */
export function urlSigningKey(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('steward storage signed URLs').digest('base64url');
}

/**
 * `expiresIn` of a sign request: whole seconds, at least 1 and at most `maxSeconds` (steward.toml
 * `[storage] max_signed_url_expiry`). Anything else is refused, as the storage server refuses an
 * expiry past its limit, with `InvalidParameter`.
 */
export function validExpiresIn(value: unknown, maxSeconds: number): number {
  const seconds = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : NaN;
  if (!(seconds >= 1 && seconds <= maxSeconds)) {
    throw new StorageError(400, 'InvalidParameter', 'Invalid Parameter expiresIn');
  }
  return seconds;
}

/**
 * The `signedURL` storage-js expects: relative to `/storage/v1`, with the token, an HS256 JWT
 * `{url: "bucket/name", scope, role, sub, aal, iat, exp}` (the storage server's claims plus the
 * signer).
 */
export function signedObjectUrl(
  key: string,
  bucketId: string,
  name: string,
  expiresIn: number,
  signer: UrlSigner,
  now = Math.floor(Date.now() / 1000),
): string {
  const url = `${bucketId}/${name}`;
  const token = signJwt(
    { url, scope: DOWNLOAD_SCOPE, ...signerClaims(signer), iat: now, exp: now + expiresIn },
    key,
  );
  return `/object/sign/${url}?token=${token}`;
}

const signerClaims = (signer: UrlSigner) => ({
  role: signer.role,
  ...(signer.sub === null ? {} : { sub: signer.sub }),
  aal: signer.aal,
});

/** The claims of a verified signed-URL token. */
interface SignedClaims {
  url?: unknown;
  scope?: unknown;
  role?: unknown;
  sub?: unknown;
  aal?: unknown;
  owner?: unknown;
  upsert?: unknown;
  jti?: unknown;
  exp: number;
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
    claims = verifyJwt(token, key, -Infinity) as Omit<SignedClaims, 'exp'> & { exp?: unknown };
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
  return claims as SignedClaims;
}

/**
 * The signer named by a token; tokens made before signers were recorded name none, and those
 * made before the assurance level was recorded count as `aal1`.
 */
function signerIn(role: unknown, sub: unknown, aal: unknown): UrlSigner {
  if (!(API_ROLES as readonly unknown[]).includes(role)) {
    throw storageErrors.invalidSignature('Token does not name its signer');
  }
  return {
    role: role as ApiRole,
    sub: typeof sub === 'string' && sub !== '' ? sub : null,
    aal: assurance(aal),
  };
}

/**
 * Checks a signed-URL token for `bucketId/name` and returns its signer: a bad or expired token
 * is `InvalidJWT`, a token for another object, for uploading or without a signer
 * `InvalidSignature`. Expiry is exact, without skew.
 */
export function verifySignedObjectUrl(
  key: string,
  token: string,
  bucketId: string,
  name: string,
  now = Date.now() / 1000,
): UrlSigner {
  const claims = verifyToken(key, token, DOWNLOAD_SCOPE, bucketId, name, now);
  return signerIn(claims.role, claims.sub, claims.aal);
}

/**
 * The object a signed download URL's token names, and its signer: for Steward's own routes that
 * show that object under another address (a preview whose address ends with the document's
 * name, server/previews/). The token is checked exactly as at `/object/sign/…`.
 */
export function verifySignedObjectToken(
  key: string,
  token: string,
  now = Date.now() / 1000,
): { bucketId: string; name: string; signer: UrlSigner } {
  let url: unknown;
  try {
    url = (verifyJwt(token, key, -Infinity) as { url?: unknown }).url;
  } catch (error) {
    if (error instanceof JwtError) throw storageErrors.invalidJwt(`Invalid JWT: ${error.message}`);
    throw error;
  }
  const slash = typeof url === 'string' ? url.indexOf('/') : -1;
  if (typeof url !== 'string' || slash < 1) throw storageErrors.invalidSignature();
  const bucketId = url.slice(0, slash);
  const name = url.slice(slash + 1);
  return { bucketId, name, signer: verifySignedObjectUrl(key, token, bucketId, name, now) };
}

/**
 * A signed upload URL (`createSignedUploadUrl`): lets whoever holds it upload `bucketId/name`
 * once, as its signer, for two hours or the installation's longest signed URL if shorter.
 */
export function signedUploadUrl(
  key: string,
  bucketId: string,
  name: string,
  signer: UrlSigner,
  options: { upsert: boolean; maxSeconds: number },
  now = Math.floor(Date.now() / 1000),
): { url: string; token: string } {
  const url = `${bucketId}/${name}`;
  const lifetime = Math.min(UPLOAD_URL_SECONDS, options.maxSeconds);
  const token = signJwt(
    {
      owner: signer.sub,
      url,
      upsert: options.upsert,
      scope: UPLOAD_SCOPE,
      role: signer.role,
      aal: signer.aal,
      jti: randomUUID(),
      iat: now,
      exp: now + lifetime,
    },
    key,
  );
  return { url: `/object/upload/sign/${url}?token=${token}`, token };
}

/** What a verified signed upload URL allows, and the id that makes it work once. */
export interface SignedUpload {
  signer: UrlSigner;
  upsert: boolean;
  tokenId: string;
  /** Expiry in seconds since the epoch: how long the used id must be remembered. */
  expiresAt: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Checks a signed upload URL's token; returns who uploads, whether it may replace, its id. */
export function verifySignedUploadUrl(
  key: string,
  token: string,
  bucketId: string,
  name: string,
  now = Date.now() / 1000,
): SignedUpload {
  const claims = verifyToken(key, token, UPLOAD_SCOPE, bucketId, name, now);
  const signer = signerIn(claims.role, claims.owner, claims.aal);
  if (typeof claims.jti !== 'string' || !UUID.test(claims.jti)) {
    throw storageErrors.invalidSignature('Token has no id');
  }
  return { signer, upsert: claims.upsert === true, tokenId: claims.jti, expiresAt: claims.exp };
}
