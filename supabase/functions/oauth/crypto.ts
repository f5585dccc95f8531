/**
 * Cryptography of the `oauth` function, with WebCrypto only so that it runs unchanged on
 * Supabase's Deno edge runtime and in Node: random states, state hashes, and AES-256-GCM for
 * the tokens kept at rest.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// The byte arrays' types are inferred, never written: TypeScript 5.7+ (Node's tsc) needs them to
// be `Uint8Array<ArrayBuffer>` to pass as a BufferSource, and the TypeScript 5.6 of Supabase's
// edge runtime (Deno 2.1) has no generic `Uint8Array`.
export function fromBase64Url(text: string) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new TokenCipherError('not base64url');
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  let binary: string;
  try {
    binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  } catch {
    throw new TokenCipherError('not base64url');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A fresh OAuth state: 256 random bits, URL-safe. */
export function randomState(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** Hex SHA-256: states are stored only as this hash, so a leaked table cannot be replayed. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** A stored token that cannot be decrypted: wrong key, tampered, or not ours. */
export class TokenCipherError extends Error {}

/** The raw bytes of `OAUTH_TOKEN_KEY` (256 bits, base64url); throws when it is anything else. */
function tokenKeyBytes(base64UrlKey: string | undefined) {
  if (!base64UrlKey) throw new Error('OAUTH_TOKEN_KEY is not set');
  const raw = decodeTokenKey(base64UrlKey.trim());
  if (raw.length !== 32) throw new Error('OAUTH_TOKEN_KEY must be 256 bits (32 bytes)');
  return raw;
}

function decodeTokenKey(text: string) {
  try {
    return fromBase64Url(text);
  } catch {
    throw new Error('OAUTH_TOKEN_KEY must be base64url');
  }
}

/** Throws unless `base64UrlKey` is a 256-bit base64url key. */
export function assertTokenKey(base64UrlKey: string | undefined): void {
  tokenKeyBytes(base64UrlKey);
}

/**
 * Imports `OAUTH_TOKEN_KEY` as a non-extractable AES-GCM key. Throws when the key is missing or
 * not 32 bytes: running without one would store tokens in plain text.
 */
export function importTokenKey(base64UrlKey: string | undefined): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', tokenKeyBytes(base64UrlKey), 'AES-GCM', false, [
    'encrypt',
    'decrypt',
  ]);
}

// Version prefix, so that a later key rotation or algorithm change can tell formats apart.
const FORMAT = 'v1';

/**
 * Encrypts `plaintext` with AES-256-GCM and a fresh 96-bit nonce. `context` is bound as
 * additional authenticated data (connection, column): a ciphertext copied to another row or
 * column fails to decrypt instead of handing out someone else's token.
 */
export async function encryptToken(
  key: CryptoKey,
  plaintext: string,
  context: string,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(context) },
    key,
    encoder.encode(plaintext),
  );
  return `${FORMAT}.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(sealed))}`;
}

/** Decrypts what `encryptToken` produced with the same key and context; throws otherwise. */
export async function decryptToken(
  key: CryptoKey,
  stored: string,
  context: string,
): Promise<string> {
  const parts = stored.split('.');
  if (parts.length !== 3 || parts[0] !== FORMAT) {
    throw new TokenCipherError('stored token has an unknown format');
  }
  const iv = fromBase64Url(parts[1]!);
  const sealed = fromBase64Url(parts[2]!);
  if (iv.length !== 12 || sealed.length < 16) {
    throw new TokenCipherError('stored token has an unknown format');
  }
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(context) },
      key,
      sealed,
    );
    return decoder.decode(plain);
  } catch {
    throw new TokenCipherError('stored token failed authentication');
  }
}
