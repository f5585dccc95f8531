import { createHmac, timingSafeEqual } from 'node:crypto';

/** Claims of the tokens this backend issues and accepts (GoTrue's names). */
export interface JwtClaims {
  sub?: string;
  role?: string;
  exp?: number;
  iat?: number;
  [claim: string]: unknown;
}

export class JwtError extends Error {
  constructor(
    message: string,
    readonly reason: 'malformed' | 'signature' | 'expired' | 'algorithm',
  ) {
    super(message);
  }
}

const base64url = (input: Buffer | string) => Buffer.from(input).toString('base64url');

/** Signs `claims` with HS256, the algorithm of Supabase's legacy shared JWT secret. */
export function signJwt(claims: JwtClaims, secret: string): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  return `${header}.${payload}.${base64url(signature)}`;
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new JwtError('token is malformed', 'malformed');
  }
}

/**
 * Verifies an HS256 token and returns its claims. Only HS256 is accepted: a token that names
 * another algorithm (`none` included) is refused before its signature is looked at. `exp` is
 * checked with the 30 seconds of clock skew PostgREST allows.
 */
export function verifyJwt(token: string, secret: string, now = Date.now() / 1000): JwtClaims {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) {
    throw new JwtError('token is malformed', 'malformed');
  }
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJson(headerPart);
  if (
    typeof header !== 'object' ||
    header === null ||
    (header as { alg?: unknown }).alg !== 'HS256'
  ) {
    throw new JwtError('signing method is not HS256', 'algorithm');
  }
  const expected = createHmac('sha256', secret).update(`${headerPart}.${payloadPart}`).digest();
  const actual = Buffer.from(signaturePart, 'base64url');
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) {
    throw new JwtError('signature is invalid', 'signature');
  }
  const claims = decodeJson(payloadPart);
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
    throw new JwtError('token is malformed', 'malformed');
  }
  const { exp } = claims as JwtClaims;
  if (exp !== undefined && (typeof exp !== 'number' || exp + 30 < now)) {
    throw new JwtError('token has invalid claims: token is expired', 'expired');
  }
  return claims as JwtClaims;
}
