import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/database.ts';

/** The kinds of e-mail that carry a one-time token (GoTrue's `one_time_token_type`). */
export type OneTimeTokenType =
  | 'confirmation_token'
  | 'reauthentication_token'
  | 'recovery_token'
  | 'email_change_token_new'
  | 'email_change_token_current';

/** What an e-mail carries: a link secret (256 bits) and a six-digit code. Neither is stored. */
export interface IssuedToken {
  /** The `token_hash` of the link (GoTrue's name; here a random secret, hashed in storage). */
  tokenHash: string;
  /** The code a user may type instead (`verifyOtp({ email, token })`). */
  code: string;
}

/** Wrong codes a token survives; the next wrong one voids it (a new e-mail is needed). */
const MAX_FAILED_CODES = 5;

/** Link secrets this server issues: 43 URL-safe characters. Anything else cannot be one. */
export const TOKEN_HASH_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const CODE_PATTERN = /^\d{6}$/;

const digest = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * The stored form of a code: an HMAC with a key only the server has, bound to the user and
 * the kind of token, so that a copy of the table cannot be searched for codes offline.
 */
function codeDigest(jwtSecret: string, userId: string, type: OneTimeTokenType, code: string) {
  const key = createHmac('sha256', jwtSecret).update('steward one-time codes').digest();
  return createHmac('sha256', key).update(`${userId}:${type}:${code}`).digest('hex');
}

/**
 * Issues the user's token of this kind, replacing (and so voiding) any earlier one, in the
 * caller's transaction. `relatesTo` is the address the e-mail goes to.
 */
export async function issueOneTimeToken(
  tx: Queryable,
  jwtSecret: string,
  userId: string,
  type: OneTimeTokenType,
  relatesTo: string,
): Promise<IssuedToken> {
  const tokenHash = randomBytes(32).toString('base64url');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await tx.query(
    `insert into auth.one_time_tokens (user_id, token_type, token_hash, code_hash, relates_to)
      values ($1::uuid, $2, $3, $4, $5)
      on conflict (user_id, token_type) do update
        set token_hash = excluded.token_hash, code_hash = excluded.code_hash,
            relates_to = excluded.relates_to, failed_attempts = 0,
            created_at = now(), updated_at = now()`,
    [userId, type, digest(tokenHash), codeDigest(jwtSecret, userId, type, code), relatesTo],
  );
  return { tokenHash, code };
}

/**
 * Voids every one-time token of the user (recovery, sign-up confirmation, e-mail change…) and
 * forgets when they were sent, as GoTrue's `UpdatePassword` does: a link asked for before the
 * password changed may have been asked for by whoever knew the old one, and works no more.
 */
export async function voidOneTimeTokens(tx: Queryable, userId: string): Promise<void> {
  await tx.query('delete from auth.one_time_tokens where user_id = $1::uuid', [userId]);
  await tx.query(
    `update auth.users
        set confirmation_sent_at = null, recovery_sent_at = null, email_change_sent_at = null
      where id = $1::uuid`,
    [userId],
  );
}

/** A token that was valid and is now used up. */
export interface ConsumedToken {
  userId: string;
  relatesTo: string;
  type: OneTimeTokenType;
}

interface TokenRow {
  id: string;
  user_id: string;
  token_type: OneTimeTokenType;
  relates_to: string;
  code_hash: string;
  expired: boolean;
}

async function deleteToken(tx: Queryable, id: string): Promise<void> {
  await tx.query('delete from auth.one_time_tokens where id = $1::uuid', [id]);
}

/**
 * Uses up the token of one of `types` whose link secret is `tokenHash`: its user, address and
 * kind, or null when there is no such token or it is older than `expirySeconds` (an expired one
 * is deleted). Lookup is by the SHA-256 digest of the secret, so its timing says nothing about
 * any stored secret.
 */
export async function consumeTokenHash(
  tx: Queryable,
  types: readonly OneTimeTokenType[],
  tokenHash: string,
  expirySeconds: number,
): Promise<ConsumedToken | null> {
  if (!TOKEN_HASH_PATTERN.test(tokenHash)) return null;
  const { rows } = await tx.query<TokenRow>(
    `select id, user_id, token_type, relates_to, code_hash,
            created_at < now() - make_interval(secs => $3) as expired
       from auth.one_time_tokens where token_hash = $1 and token_type = any($2::text[])
        for update`,
    [digest(tokenHash), types, expirySeconds],
  );
  const row = rows[0];
  if (!row) return null;
  await deleteToken(tx, row.id);
  return row.expired
    ? null
    : { userId: row.user_id, relatesTo: row.relates_to, type: row.token_type };
}

/** Whether the user has a token of this kind, used or expired or not. */
export async function hasOneTimeToken(
  q: Queryable,
  userId: string,
  type: OneTimeTokenType,
): Promise<boolean> {
  const { rows } = await q.query(
    'select 1 from auth.one_time_tokens where user_id = $1::uuid and token_type = $2',
    [userId, type],
  );
  return rows.length > 0;
}

/** How a code check ended; a wrong code counts against the token (and may void it). */
export type CodeOutcome = { ok: true; token: ConsumedToken } | { ok: false };

/**
 * Uses up the user's token of this kind if `code` is its code (compared in constant time) and
 * it is younger than `expirySeconds`. A wrong code is counted; the fifth voids the token, so
 * the code cannot be guessed within its hour. The caller commits even when the check fails.
 */
export async function consumeCode(
  tx: Queryable,
  jwtSecret: string,
  userId: string,
  type: OneTimeTokenType,
  code: string,
  expirySeconds: number,
): Promise<CodeOutcome> {
  const { rows } = await tx.query<TokenRow & { failed_attempts: number }>(
    `select id, user_id, token_type, relates_to, code_hash, failed_attempts,
            created_at < now() - make_interval(secs => $3) as expired
       from auth.one_time_tokens where user_id = $1::uuid and token_type = $2 for update`,
    [userId, type, expirySeconds],
  );
  const row = rows[0];
  if (!row) return { ok: false };
  if (row.expired) {
    await deleteToken(tx, row.id);
    return { ok: false };
  }
  const expected = Buffer.from(row.code_hash, 'hex');
  const given = Buffer.from(
    codeDigest(jwtSecret, userId, type, CODE_PATTERN.test(code) ? code : ''),
    'hex',
  );
  if (CODE_PATTERN.test(code) && timingSafeEqual(expected, given)) {
    await deleteToken(tx, row.id);
    return {
      ok: true,
      token: { userId: row.user_id, relatesTo: row.relates_to, type: row.token_type },
    };
  }
  if (row.failed_attempts + 1 >= MAX_FAILED_CODES) {
    await deleteToken(tx, row.id);
  } else {
    await tx.query(
      `update auth.one_time_tokens set failed_attempts = failed_attempts + 1, updated_at = now()
        where id = $1::uuid`,
      [row.id],
    );
  }
  return { ok: false };
}
