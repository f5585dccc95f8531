import type { Caller } from '../http/caller.ts';
import { resolveCaller } from '../http/caller.ts';
import { RestError } from './errors.ts';

function sentToken(headers: Headers): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get('authorization') ?? '');
  return match ? match[1]! : (headers.get('apikey') ?? '');
}

const invalidToken = (code: string, message: string) =>
  new RestError(401, code, message, {
    headers: {
      'WWW-Authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
    },
  });

// Verified tokens, as PostgREST's JWT cache: a client sends the same token with every request,
// and checking its signature again each time is measurable on the hot path. Only successes are
// kept; the expiry is checked again on every use (with PostgREST's 30 s of skew).
const MAX_CACHED = 1000;
const verified = new Map<string, Caller>();

function cached(key: string): Caller | null {
  const caller = verified.get(key);
  if (!caller) return null;
  const exp = caller.claims.exp;
  if (exp !== undefined && exp + 30 < Date.now() / 1000) {
    verified.delete(key);
    return null;
  }
  return caller;
}

function remember(key: string, caller: Caller): void {
  if (verified.size >= MAX_CACHED) verified.delete(verified.keys().next().value!);
  verified.set(key, caller);
}

/**
 * The caller of a REST request, with PostgREST's (v13) answers for a bad token: 401 PGRST303
 * "JWT expired", 401 PGRST301 for a token that does not decode or verify, and 401 for a role
 * that does not exist.
 */
export function authenticate(headers: Headers, jwtSecret: string): Caller {
  const token = sentToken(headers);
  const key = `${jwtSecret}\u0000${token}`;
  const hit = token ? cached(key) : null;
  if (hit) return hit;
  const result = resolveCaller(headers, jwtSecret);
  if (result.ok) {
    if (result.caller.token) remember(key, result.caller);
    return result.caller;
  }
  switch (result.reason) {
    case 'expired':
      throw invalidToken('PGRST303', 'JWT expired');
    case 'algorithm':
      throw invalidToken('PGRST301', 'Wrong or unsupported encoding algorithm');
    case 'signature':
      throw invalidToken('PGRST301', 'JWT cryptographic operation failed');
    case 'malformed': {
      const parts = token.split('.').length;
      throw invalidToken(
        'PGRST301',
        parts === 3 ? "JWT couldn't be decoded" : `Expected 3 parts in JWT; got ${parts}`,
      );
    }
    case 'role':
      throw new RestError(401, '22023', result.message, {
        headers: { 'WWW-Authenticate': 'Bearer' },
      });
  }
}
