import type { Caller } from '../http/caller.ts';
import type { Credentials } from '../http/credentials.ts';
import { RestError } from './errors.ts';

const invalidToken = (code: string, message: string) =>
  new RestError(401, code, message, {
    headers: {
      'WWW-Authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
    },
  });

/**
 * The caller of a REST request, with PostgREST's (v13) answers for a bad token: 401 PGRST303
 * "JWT expired", 401 PGRST301 for a token that does not decode or verify, and 401 for a role
 * that does not exist.
 */
export function authenticate({ caller: result, token }: Credentials): Caller {
  if (result.ok) return result.caller;
  switch (result.reason) {
    case 'expired':
      throw invalidToken('PGRST303', 'JWT expired');
    case 'algorithm':
      throw invalidToken('PGRST301', 'Wrong or unsupported encoding algorithm');
    case 'signature':
      throw invalidToken('PGRST301', 'JWT cryptographic operation failed');
    case 'malformed': {
      const parts = (token ?? '').split('.').length;
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
