import type { Context, Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { AuthError, badRequest, forbidden, unexpected, unprocessable } from './errors.ts';
import type { OneTimeTokenType } from './one-time-tokens.ts';
import { consumeCode, consumeTokenHash } from './one-time-tokens.ts';
import { allowedRedirect } from './redirects.ts';
import { clientInfo, setSessionHeaders } from './request-info.ts';
import { createSession } from './sessions.ts';
import type { AuthMethod } from './tokens.ts';
import { issueAccessToken, sessionResponse } from './tokens.ts';
import { userJson } from './user-json.ts';
import type { UserRecord } from './users.ts';
import { findUserByEmail, findUserById, markSignedIn } from './users.ts';
import { readJsonObject, stringField, validateEmail } from './validation.ts';

/** The verification types this server sends e-mails for. */
type VerifyType = 'recovery' | 'signup' | 'email_change';

const TOKEN_TYPES: Record<VerifyType, OneTimeTokenType> = {
  recovery: 'recovery_token',
  signup: 'confirmation_token',
  email_change: 'email_change_token_new',
};

/** How the session a verification starts was signed in (its `amr`). */
const METHODS: Record<VerifyType, AuthMethod> = {
  recovery: 'recovery',
  signup: 'otp',
  email_change: 'otp',
};

const linkInvalid = () => forbidden('otp_expired', 'Email link is invalid or has expired');
const codeInvalid = () => forbidden('otp_expired', 'Token has expired or is invalid');

function verifyType(type: string): VerifyType {
  if (type === 'recovery' || type === 'signup' || type === 'email_change') return type;
  throw badRequest('validation_failed', 'Unsupported verification type');
}

/** What the verified token does to its user, in the transaction that used it up. */
async function apply(tx: Queryable, type: VerifyType, user: UserRecord): Promise<AuthError | null> {
  if (type === 'email_change') {
    // Someone may have taken the address since the change was asked for.
    const taken = await tx.query(
      `select 1 from auth.users where lower(email) = lower($1) and id <> $2::uuid
          and is_sso_user = false`,
      [user.new_email, user.id],
    );
    if (taken.rows.length > 0) {
      return unprocessable(
        'email_exists',
        'A user with this email address has already been registered',
      );
    }
    await tx.query(
      `update auth.users
          set email = email_change, email_change = '', email_change_sent_at = null,
              email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
        where id = $1::uuid`,
      [user.id],
    );
    await tx.query(
      `update auth.identities
          set identity_data = identity_data || jsonb_build_object('email', $2::text,
                                                                   'email_verified', true),
              updated_at = now()
        where user_id = $1::uuid and provider = 'email'`,
      [user.id, user.new_email],
    );
    return null;
  }
  // Recovery proves the address too, as GoTrue's recoverVerify confirms an unconfirmed user.
  await tx.query(
    `update auth.users
        set email_confirmed_at = coalesce(email_confirmed_at, now()),
            raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb)
                                 || '{"email_verified": true}'::jsonb,
            updated_at = now()
      where id = $1::uuid`,
    [user.id],
  );
  return null;
}

/** Whether the token was sent to the address the user still has (or still wants). */
function stillMatches(type: VerifyType, user: UserRecord, relatesTo: string): boolean {
  const address = type === 'email_change' ? user.new_email : user.email;
  return (address ?? '').toLowerCase() === relatesTo.toLowerCase();
}

interface Verified {
  user: UserRecord;
  json: Record<string, unknown>;
  session: Awaited<ReturnType<typeof createSession>>;
}

/**
 * Uses up a token (by its link secret, or by the user's address and code) and starts a
 * session, all in one transaction. Errors are returned rather than thrown so that a wrong
 * code's count is committed.
 */
async function verifyAndSignIn(
  c: Context,
  ctx: AppContext,
  type: VerifyType,
  credential: { tokenHash: string } | { email: string; code: string },
): Promise<Verified> {
  const expiry = ctx.config.auth.emailOtpExpirySeconds;
  const tokenType = TOKEN_TYPES[type];
  const outcome = await ctx.db.transaction(async (tx): Promise<Verified | AuthError> => {
    let userId: string;
    let relatesTo: string;
    if ('tokenHash' in credential) {
      const consumed = await consumeTokenHash(tx, tokenType, credential.tokenHash, expiry);
      if (!consumed) return linkInvalid();
      ({ userId, relatesTo } = consumed);
    } else {
      const owner =
        type === 'email_change'
          ? await findUserByPendingEmail(tx, credential.email)
          : await findUserByEmail(tx, credential.email);
      if (!owner) return codeInvalid();
      const checked = await consumeCode(
        tx,
        ctx.keys.jwtSecret,
        owner.id,
        tokenType,
        credential.code,
        expiry,
      );
      if (!checked.ok) return codeInvalid();
      ({ userId, relatesTo } = checked.token);
    }
    const user = await findUserById(tx, userId);
    if (!user || !stillMatches(type, user, relatesTo)) {
      return 'tokenHash' in credential ? linkInvalid() : codeInvalid();
    }
    if (user.is_banned) return forbidden('user_banned', 'User is banned');
    const refused = await apply(tx, type, user);
    if (refused) return refused;
    const now = new Date().toISOString();
    const session = await createSession(tx, user.id, clientInfo(c), now, METHODS[type]);
    await markSignedIn(tx, user.id, now);
    const fresh = await findUserById(tx, user.id);
    if (!fresh) return unexpected('Database error updating user');
    return { user: fresh, json: await userJson(tx, fresh), session };
  });
  if (outcome instanceof AuthError) throw outcome;
  return outcome;
}

async function findUserByPendingEmail(q: Queryable, email: string): Promise<UserRecord | null> {
  const { rows } = await q.query<{ id: string }>(
    `select id from auth.users where lower(email_change) = lower($1) and is_sso_user = false
      limit 1`,
    [email],
  );
  return rows[0] ? findUserById(q, rows[0].id) : null;
}

/**
 * `POST /verify` (`verifyOtp`) and `GET /verify` (the link GoTrue e-mails): uses up a recovery,
 * sign-up or e-mail-change token and answers with a session. POST takes `{type, token_hash}`
 * or `{type, email, token}` (the six-digit code); GET takes `?token=…&type=…&redirect_to=…`
 * and redirects there with the session in the fragment, or with the error, as GoTrue does.
 */
export function registerVerify(app: Hono<ApiEnv>, ctx: AppContext): void {
  app.post('/verify', async (c) => {
    const body = await readJsonObject(c);
    const rawType = stringField(body, 'type');
    const token = stringField(body, 'token');
    const tokenHash = stringField(body, 'token_hash');
    const email = stringField(body, 'email');
    const phone = stringField(body, 'phone');
    if (rawType === '')
      throw badRequest('validation_failed', 'Verify requires a verification type');
    if ((token === '') === (tokenHash === '')) {
      throw badRequest('validation_failed', 'Verify requires either a token or a token hash');
    }
    let credential: { tokenHash: string } | { email: string; code: string };
    if (token !== '') {
      if (phone !== '' || email === '') {
        throw badRequest(
          'validation_failed',
          'Only an email address or phone number should be provided on verify',
        );
      }
      credential = { email: validateEmail(email), code: token };
    } else {
      if (email !== '' || phone !== '' || stringField(body, 'redirect_to') !== '') {
        throw badRequest('validation_failed', 'Only the token_hash and type should be provided');
      }
      credential = { tokenHash };
    }
    const verified = await verifyAndSignIn(c, ctx, verifyType(rawType), credential);
    const access = issueAccessToken(ctx, verified.user, verified.session.session);
    setSessionHeaders(c, verified.user.id, verified.session.session.id);
    return c.json(sessionResponse(access, verified.session.refreshToken, verified.json));
  });

  app.get('/verify', async (c) => {
    const rawType = c.req.query('type') ?? '';
    const token = c.req.query('token') ?? '';
    if (rawType === '')
      throw badRequest('validation_failed', 'Verify requires a verification type');
    if (token === '') {
      throw badRequest('validation_failed', 'Verify requires a token or a token hash');
    }
    const target =
      allowedRedirect(ctx.config.auth, c.req.query('redirect_to')) ?? ctx.config.auth.siteUrl;
    const fragment = new URLSearchParams();
    try {
      const type = verifyType(rawType);
      const verified = await verifyAndSignIn(c, ctx, type, { tokenHash: token });
      const access = issueAccessToken(ctx, verified.user, verified.session.session);
      setSessionHeaders(c, verified.user.id, verified.session.session.id);
      const response = sessionResponse(access, verified.session.refreshToken, verified.json);
      for (const key of [
        'access_token',
        'expires_at',
        'expires_in',
        'refresh_token',
        'token_type',
      ]) {
        fragment.set(key, String(response[key]));
      }
      fragment.set('type', type);
    } catch (error) {
      if (!(error instanceof AuthError) || error.status >= 500) throw error;
      fragment.set('error', error.status === 403 ? 'access_denied' : 'invalid_request');
      fragment.set('error_code', error.code);
      fragment.set('error_description', error.message);
    }
    const url = new URL(target);
    url.hash = fragment.toString();
    return c.redirect(url.toString(), 303);
  });
}
