import type { Queryable } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import { rfc3339, trimFraction } from './timestamps.ts';
import type { JsonObject } from './validation.ts';

/** GoTrue writes the nil UUID as every user's `instance_id`. */
const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** An `auth.users` row as the auth service reads it; timestamps are RFC 3339 strings. */
export interface UserRecord {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  phone: string | null;
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  phone_confirmed_at: string | null;
  confirmation_sent_at: string | null;
  confirmed_at: string | null;
  recovery_sent_at: string | null;
  new_email: string | null;
  email_change_sent_at: string | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: JsonObject | null;
  raw_user_meta_data: JsonObject | null;
  created_at: string | null;
  updated_at: string | null;
  banned_until: string | null;
  deleted_at: string | null;
  is_anonymous: boolean;
  /** `banned_until` lies in the future. */
  is_banned: boolean;
}

const USER_COLUMNS = [
  'u.id',
  'u.aud',
  'u.role',
  'u.email',
  'u.phone',
  'u.encrypted_password',
  rfc3339('u.email_confirmed_at', 'email_confirmed_at'),
  rfc3339('u.invited_at', 'invited_at'),
  rfc3339('u.phone_confirmed_at', 'phone_confirmed_at'),
  rfc3339('u.confirmation_sent_at', 'confirmation_sent_at'),
  rfc3339('u.confirmed_at', 'confirmed_at'),
  rfc3339('u.recovery_sent_at', 'recovery_sent_at'),
  "nullif(u.email_change, '') as new_email",
  rfc3339('u.email_change_sent_at', 'email_change_sent_at'),
  rfc3339('u.last_sign_in_at', 'last_sign_in_at'),
  'u.raw_app_meta_data',
  'u.raw_user_meta_data',
  rfc3339('u.created_at', 'created_at'),
  rfc3339('u.updated_at', 'updated_at'),
  rfc3339('u.banned_until', 'banned_until'),
  rfc3339('u.deleted_at', 'deleted_at'),
  'u.is_anonymous',
  'coalesce(u.banned_until > now(), false) as is_banned',
].join(', ');

const TIMESTAMP_FIELDS = [
  'email_confirmed_at',
  'invited_at',
  'phone_confirmed_at',
  'confirmation_sent_at',
  'confirmed_at',
  'recovery_sent_at',
  'email_change_sent_at',
  'last_sign_in_at',
  'created_at',
  'updated_at',
  'banned_until',
  'deleted_at',
] as const;

function normalise(row: UserRecord): UserRecord {
  const copy = { ...row };
  for (const field of TIMESTAMP_FIELDS) copy[field] = trimFraction(row[field]);
  return copy;
}

async function findOne(q: Queryable, where: string, value: string): Promise<UserRecord | null> {
  const { rows } = await q.query<UserRecord>(
    `select ${USER_COLUMNS} from auth.users u where ${where} limit 1`,
    [value],
  );
  return rows[0] ? normalise(rows[0]) : null;
}

/** The password user with this (lower-cased) e-mail address, as GoTrue looks it up. */
export function findUserByEmail(q: Queryable, email: string): Promise<UserRecord | null> {
  return findOne(q, 'lower(u.email) = lower($1) and u.is_sso_user = false', email);
}

/**
 * The e-mail address as the database compares it (`lower()` under the database's own locale,
 * which JavaScript's `toLowerCase` does not match: `İ`, for one, becomes `i` in one and `i̇` in
 * the other). Everything keyed by an account's e-mail, such as the sign-in limits, uses this,
 * so every spelling that reaches one account shares one key.
 */
export async function emailLookupKey(q: Queryable, email: string): Promise<string> {
  const { rows } = await q.query<{ key: string }>('select lower($1::text) as key', [email]);
  return rows[0]!.key;
}

export function findUserById(q: Queryable, id: string): Promise<UserRecord | null> {
  return findOne(q, 'u.id = $1::uuid', id);
}

export interface NewUser {
  id: string;
  email: string;
  passwordHash: string;
  userMetadata: JsonObject;
  /** Confirmed users may sign in at once (e-mail confirmation is off, or an admin said so). */
  confirmed: boolean;
  /** ISO timestamp written as created_at, updated_at (and email_confirmed_at when confirmed). */
  now: string;
  /** Merged over `{provider: "email", providers: ["email"]}` (the admin API allows it). */
  appMetadata?: JsonObject;
  /** Sign-up copies its `data` into the identity as well; the admin API does not. */
  identityWithMetadata: boolean;
}

/** Whether `error` is a unique violation of the named constraint (both drivers report it). */
function violates(error: unknown, constraint: string): boolean {
  return (
    isPostgresError(error) &&
    error.code === '23505' &&
    (error as { constraint?: string }).constraint === constraint
  );
}

/** Raised when the e-mail address is taken, also when a concurrent sign-up took it first. */
export class DuplicateEmailError extends Error {}
/** Raised when the admin API is given the id of an existing user. */
export class DuplicateIdError extends Error {}

/**
 * Inserts the user and their e-mail identity, as GoTrue's sign-up does. Runs in the caller's
 * transaction, so triggers on `auth.users` (an app's profile row, say) fire inside it and an
 * error in one leaves nothing behind.
 */
export async function insertUser(tx: Queryable, user: NewUser): Promise<void> {
  // As GoTrue's Confirm does: a confirmed address shows as verified in user_metadata.
  const metadata = user.confirmed
    ? { ...user.userMetadata, email_verified: true }
    : user.userMetadata;
  try {
    await tx.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
          email_confirmed_at, confirmation_token, recovery_token, email_change,
          raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
        values ($1::uuid, $2::uuid, 'authenticated', 'authenticated', $3, $4,
          case when $5::boolean then $6::timestamptz end, '', '', '',
          $7::jsonb, $8::jsonb, $6::timestamptz, $6::timestamptz)`,
      [
        NIL_UUID,
        user.id,
        user.email,
        user.passwordHash,
        user.confirmed,
        user.now,
        JSON.stringify({ provider: 'email', providers: ['email'], ...user.appMetadata }),
        JSON.stringify(metadata),
      ],
    );
  } catch (error) {
    if (violates(error, 'users_email_partial_key')) throw new DuplicateEmailError(user.email);
    if (violates(error, 'users_pkey')) throw new DuplicateIdError(user.id);
    throw error;
  }
  // GoTrue's identity data for an e-mail identity: the provider claims, then any sign-up data
  // under keys the claims do not use.
  const identityData = {
    ...(user.identityWithMetadata ? user.userMetadata : {}),
    sub: user.id,
    email: user.email,
    email_verified: false,
    phone_verified: false,
  };
  await tx.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider,
        last_sign_in_at, created_at, updated_at)
      values ($1::text, $2::uuid, $3::jsonb, 'email', $4::timestamptz, $4::timestamptz,
        $4::timestamptz)`,
    [user.id, user.id, JSON.stringify(identityData), user.now],
  );
}

/** Records a successful sign-in, as GoTrue's `UpdateLastSignInAt` does. */
export async function markSignedIn(tx: Queryable, userId: string, now: string): Promise<void> {
  await tx.query(
    `update auth.users set last_sign_in_at = $2::timestamptz, updated_at = $2::timestamptz
      where id = $1::uuid`,
    [userId, now],
  );
}

/**
 * Merges `patch` into user_metadata the way GoTrue does: keys with a value replace, keys set to
 * `null` are removed, other keys stay.
 */
export async function updateUserMetadata(
  tx: Queryable,
  userId: string,
  patch: JsonObject,
  now: string,
): Promise<void> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null));
  const removed = Object.keys(patch).filter((key) => patch[key] === null);
  await tx.query(
    `update auth.users
        set raw_user_meta_data = (coalesce(raw_user_meta_data, '{}'::jsonb) || $2::jsonb) - $3::text[],
            updated_at = $4::timestamptz
      where id = $1::uuid`,
    [userId, JSON.stringify(set), removed, now],
  );
}

export async function updatePasswordHash(
  tx: Queryable,
  userId: string,
  passwordHash: string,
  now: string,
): Promise<void> {
  await tx.query(
    `update auth.users set encrypted_password = $2, updated_at = $3::timestamptz
      where id = $1::uuid`,
    [userId, passwordHash, now],
  );
}

/** Deletes the user; identities, sessions and refresh tokens go with it (foreign keys cascade). */
export async function deleteUser(tx: Queryable, userId: string): Promise<boolean> {
  const { rowCount } = await tx.query('delete from auth.users where id = $1::uuid', [userId]);
  return rowCount > 0;
}
