import { createHmac } from 'node:crypto';
import { trimFraction } from './timestamps.ts';
import type { JsonObject } from './validation.ts';

/** A version-4 UUID made from `label` and `value` with a key only the server has. */
function derivedUuid(jwtSecret: string, label: string, value: string): string {
  const key = createHmac('sha256', jwtSecret).update('steward sign-up decoys').digest();
  const bytes = createHmac('sha256', key).update(`${label}:${value}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * `value` with the keys of every object in the order Postgres's jsonb keeps them (shorter keys
 * first, then by their bytes), as the real answer's metadata comes back from the database.
 */
function inJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value).sort(
    (a, b) =>
      Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)),
  );
  return Object.fromEntries(
    keys.map((key) => [key, inJsonbOrder((value as Record<string, unknown>)[key])]),
  );
}

/**
 * The answer to a sign-up for an address that already has a confirmed account, where new
 * addresses are confirmed by a link: as GoTrue's `sanitizeUser`, a made-up user, so that
 * sign-up does not tell who has an account. GoTrue's own decoy still tells (no identity, an empty
 * role, another id at every try); this one has the shape of the answer to a real new sign-up
 * (`userJson` of a user who has not confirmed yet), with the same ids for the same address every
 * time, as a real pending sign-up keeps its id.
 */
export function decoyUserJson(jwtSecret: string, email: string, data: JsonObject): JsonObject {
  const id = derivedUuid(jwtSecret, 'user', email);
  const now = trimFraction(new Date().toISOString())!;
  return {
    id,
    aud: 'authenticated',
    role: 'authenticated',
    email,
    phone: '',
    app_metadata: { provider: 'email', providers: ['email'] },
    user_metadata: inJsonbOrder(data),
    identities: [
      {
        identity_id: derivedUuid(jwtSecret, 'identity', email),
        id,
        user_id: id,
        identity_data: inJsonbOrder({
          ...data,
          sub: id,
          email,
          email_verified: false,
          phone_verified: false,
        }),
        provider: 'email',
        last_sign_in_at: now,
        created_at: now,
        updated_at: now,
        email,
      },
    ],
    created_at: now,
    updated_at: now,
    is_anonymous: false,
  };
}
