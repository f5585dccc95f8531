import { isIP } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { ScopedDatabase, Queryable } from '../db/database.ts';
import { AuthError, badRequest } from './errors.ts';
import type { AuthMethod, TokenSession } from './tokens.ts';
import { childRefreshToken, newRefreshToken, refreshTokenDigest } from './tokens.ts';
import type { UserRecord } from './users.ts';
import { findUserById } from './users.ts';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** Where a sign-in or refresh came from, recorded on the session as GoTrue records it. */
export interface ClientInfo {
  userAgent: string | null;
  address: string | null;
}

const inetOrNull = (address: string | null) => (address && isIP(address) ? address : null);

async function insertRefreshToken(
  tx: Queryable,
  token: string,
  parent: string | null,
  userId: string,
  sessionId: string,
  now: string,
): Promise<void> {
  await tx.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at,
        parent, session_id)
      values ($1::uuid, $2, $3, false, $4::timestamptz, $4::timestamptz, $5, $6::uuid)`,
    [
      NIL_UUID,
      refreshTokenDigest(token),
      userId,
      now,
      parent && refreshTokenDigest(parent),
      sessionId,
    ],
  );
}

/**
 * Records that `method` was used in the session (GoTrue's `mfa_amr_claims`): a second use of
 * the same method moves its time. A verified second factor raises the session to `aal2`.
 */
export async function addAmrClaim(
  tx: Queryable,
  sessionId: string,
  method: AuthMethod,
  now: string,
): Promise<void> {
  await tx.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method)
      values ($1::uuid, $2::timestamptz, $2::timestamptz, $3)
      on conflict (session_id, authentication_method)
      do update set updated_at = excluded.updated_at`,
    [sessionId, now, method],
  );
  if (method === 'totp') {
    await tx.query(
      `update auth.sessions set aal = 'aal2', updated_at = $2::timestamptz where id = $1::uuid`,
      [sessionId, now],
    );
  }
}

/**
 * Starts a session for a user who just proved who they are (`method`: a password, or a link
 * or code from an e-mail): one `auth.sessions` row, its `amr` claim and its first refresh
 * token, in the caller's transaction.
 */
export async function createSession(
  tx: Queryable,
  userId: string,
  client: ClientInfo,
  now: string,
  method: AuthMethod = 'password',
): Promise<{ session: TokenSession; refreshToken: string }> {
  const id = randomUUID();
  await tx.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
      values ($1::uuid, $2::uuid, $3::timestamptz, $3::timestamptz, 'aal1', $4, $5::inet)`,
    [id, userId, now, client.userAgent, inetOrNull(client.address)],
  );
  await addAmrClaim(tx, id, method, now);
  const refreshToken = newRefreshToken();
  await insertRefreshToken(tx, refreshToken, null, userId, id, now);
  const createdAt = Math.floor(Date.parse(now) / 1000);
  return {
    session: { id, createdAt, aal: 'aal1', amr: [{ method, timestamp: createdAt }] },
    refreshToken,
  };
}

/**
 * Gives a session a new refresh token (after its assurance level changed, as GoTrue does when
 * a second factor is verified): the session's current tokens are revoked.
 */
export async function replaceRefreshToken(
  tx: Queryable,
  userId: string,
  sessionId: string,
  now: string,
): Promise<string> {
  await tx.query(
    `update auth.refresh_tokens set revoked = true, updated_at = $2::timestamptz
      where session_id = $1::uuid and not coalesce(revoked, false)`,
    [sessionId, now],
  );
  const refreshToken = newRefreshToken();
  await insertRefreshToken(tx, refreshToken, null, userId, sessionId, now);
  return refreshToken;
}

/** The session with this id, with its `aal` and `amr`, if it still exists (logout deletes it). */
export async function findSession(q: Queryable, id: string): Promise<TokenSession | null> {
  const { rows } = await q.query<{
    id: string;
    created_at: number;
    aal: string | null;
    amr: { method: string; timestamp: number }[] | null;
  }>(
    `select s.id, extract(epoch from s.created_at)::float8 as created_at, s.aal,
            (select jsonb_agg(jsonb_build_object(
                      'method', c.authentication_method,
                      'timestamp', floor(extract(epoch from c.updated_at))::bigint)
                    order by c.updated_at desc, c.authentication_method)
               from auth.mfa_amr_claims c where c.session_id = s.id) as amr
       from auth.sessions s where s.id = $1::uuid`,
    [id],
  );
  const row = rows[0];
  if (!row) return null;
  const createdAt = Math.floor(row.created_at);
  return {
    id: row.id,
    createdAt,
    aal: row.aal === 'aal2' ? 'aal2' : 'aal1',
    // Sessions begun before claims were recorded were all password sign-ins.
    amr: row.amr ?? [{ method: 'password', timestamp: createdAt }],
  };
}

export type LogoutScope = 'global' | 'local' | 'others';

/**
 * Ends sessions as GoTrue's logout does: `global` every session of the user, `local` only
 * `sessionId`, `others` all but it. Refresh tokens go with their sessions.
 */
export async function deleteSessions(
  q: Queryable,
  userId: string,
  sessionId: string | null,
  scope: LogoutScope,
): Promise<void> {
  if (sessionId && scope === 'local') {
    await q.query('delete from auth.sessions where id = $1::uuid', [sessionId]);
  } else if (sessionId && scope === 'others') {
    await q.query('delete from auth.sessions where user_id = $1::uuid and id <> $2::uuid', [
      userId,
      sessionId,
    ]);
  } else {
    await q.query('delete from auth.sessions where user_id = $1::uuid', [userId]);
  }
}

export interface RotationOptions {
  jwtSecret: string;
  reuseIntervalSeconds: number;
  client: ClientInfo;
}

export interface Rotation {
  user: UserRecord;
  session: TokenSession;
  refreshToken: string;
}

const notFound = () =>
  badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
const alreadyUsed = () =>
  badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');

interface TokenRow {
  id: string;
  revoked: boolean;
  session_id: string | null;
  user_id: string;
  revoked_at: number;
}

async function readToken(q: Queryable, token: string): Promise<TokenRow | null> {
  const { rows } = await q.query<TokenRow>(
    `select id::text, coalesce(revoked, false) as revoked, session_id, user_id,
            extract(epoch from updated_at)::float8 as revoked_at
       from auth.refresh_tokens where token = $1`,
    [refreshTokenDigest(token)],
  );
  return rows[0] ?? null;
}

/**
 * Walks from a rotated token down its descendants (each derived from its parent) to the one
 * that is still active, if the chain is intact; a few steps at most.
 */
async function currentDescendant(
  q: Queryable,
  token: string,
  sessionId: string,
  jwtSecret: string,
): Promise<string | null> {
  let candidate = token;
  for (let step = 0; step < 8; step += 1) {
    candidate = childRefreshToken(jwtSecret, candidate);
    const row = await readToken(q, candidate);
    if (!row || row.session_id !== sessionId) return null;
    if (!row.revoked) return candidate;
  }
  return null;
}

/**
 * The refresh-token grant with rotation, as GoTrue does it: the presented token is revoked and
 * a child recorded with it as parent. A revoked token presented again within the reuse
 * interval yields the session's current token (two tabs refreshing at once); later it means
 * the token leaked, and the whole session is revoked.
 */
export async function rotateRefreshToken(
  db: ScopedDatabase,
  token: string,
  options: RotationOptions,
): Promise<Rotation> {
  const outcome = await db.transaction(async (tx): Promise<Rotation | AuthError> => {
    const found = await readToken(tx, token);
    if (!found) return notFound();
    if (!found.session_id) {
      return badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found');
    }
    // One rotation per session at a time: concurrent refreshes of the same session queue here
    // instead of both rotating the same token.
    const locked = await tx.query<{ expired: boolean }>(
      `select coalesce(not_after < now(), false) as expired
         from auth.sessions where id = $1::uuid for update`,
      [found.session_id],
    );
    const sessionRow = locked.rows[0];
    if (!sessionRow) return notFound();
    if (sessionRow.expired) {
      return badRequest('session_expired', 'Invalid Refresh Token: Session Expired');
    }
    const session = await findSession(tx, found.session_id);
    if (!session) return notFound();
    // Re-read under the lock: another request may have rotated it meanwhile.
    const current = await readToken(tx, token);
    if (!current) return notFound();
    const user = await findUserById(tx, current.user_id);
    if (!user) return notFound();
    if (user.is_banned) return badRequest('user_banned', 'Invalid Refresh Token: User Banned');
    const now = new Date().toISOString();

    if (current.revoked) {
      const sinceRotation = Date.now() / 1000 - current.revoked_at;
      if (sinceRotation <= options.reuseIntervalSeconds) {
        const active = await currentDescendant(tx, token, session.id, options.jwtSecret);
        if (active) return { user, session, refreshToken: active };
      }
      await tx.query('delete from auth.sessions where id = $1::uuid', [session.id]);
      return alreadyUsed();
    }

    await tx.query(
      `update auth.refresh_tokens set revoked = true, updated_at = $2::timestamptz
        where id = $1::bigint`,
      [current.id, now],
    );
    const child = childRefreshToken(options.jwtSecret, token);
    await insertRefreshToken(tx, child, token, user.id, session.id, now);
    await tx.query(
      `update auth.sessions
          set refreshed_at = $2::timestamptz at time zone 'UTC', updated_at = $2::timestamptz,
              user_agent = $3, ip = $4::inet
        where id = $1::uuid`,
      [session.id, now, options.client.userAgent, inetOrNull(options.client.address)],
    );
    return { user, session, refreshToken: child };
  });
  // Errors are returned rather than thrown so that the revocation above is committed.
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}
