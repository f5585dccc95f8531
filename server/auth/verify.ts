import type { Context, Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { AuthError, badRequest, forbidden, unexpected, unprocessable } from './errors.ts';
import type { ConsumedToken, OneTimeTokenType } from './one-time-tokens.ts';
import { consumeCode, consumeTokenHash, hasOneTimeToken } from './one-time-tokens.ts';
import { allowedRedirect } from './redirects.ts';
import { clientInfo, setSessionHeaders } from './request-info.ts';
import { createSession } from './sessions.ts';
import { confirmationsRequired } from './signup.ts';
import type { AuthMethod } from './tokens.ts';
import { issueAccessToken, sessionResponse } from './tokens.ts';
import { userJson } from './user-json.ts';
import type { UserRecord } from './users.ts';
import { findUserByEmail, findUserById, markSignedIn } from './users.ts';
import { readJsonObject, stringField, validateEmail } from './validation.ts';

/** The verification types this server sends e-mails for. */
type VerifyType = 'recovery' | 'signup' | 'email_change';

/** The tokens each type may use: an e-mail change sends one to each address. */
const TOKEN_TYPES: Record<VerifyType, readonly OneTimeTokenType[]> = {
  recovery: ['recovery_token'],
  signup: ['confirmation_token'],
  email_change: ['email_change_token_new', 'email_change_token_current'],
};

/** GoTrue's answer to the first of the two links of a secure e-mail change. */
export const SINGLE_CONFIRMATION_ACCEPTED =
  'Confirmation link accepted. Please proceed to confirm link sent to the other email';

/** The first of the two links of an e-mail change was used: the change waits for the other. */
const FIRST_OF_TWO = 'first of two';

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

/**
 * What the verified token does to its user, in the transaction that used it up: null when it
 * did it, `FIRST_OF_TWO` when an e-mail change now waits for its other link, or the refusal.
 */
async function apply(
  tx: Queryable,
  ctx: AppContext,
  type: VerifyType,
  user: UserRecord,
): Promise<AuthError | typeof FIRST_OF_TWO | null> {
  if (type === 'email_change') {
    // As GoTrue's emailChangeVerify: with secure e-mail change, and where addresses are
    // confirmed at all (no autoconfirm), the first link only counts; the second makes the
    // change. Without confirmations either link makes it.
    const { rows } = await tx.query<{ status: number | null }>(
      'select email_change_confirm_status as status from auth.users where id = $1::uuid',
      [user.id],
    );
    if (
      ctx.config.auth.doubleConfirmChanges &&
      confirmationsRequired(ctx) &&
      (rows[0]?.status ?? 0) === 0 &&
      (user.email ?? '') !== ''
    ) {
      await tx.query('update auth.users set email_change_confirm_status = 1 where id = $1::uuid', [
        user.id,
      ]);
      return FIRST_OF_TWO;
    }
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
              email_change_confirm_status = 0,
              email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
        where id = $1::uuid`,
      [user.id],
    );
    // As GoTrue's ConfirmEmailChange: every link sent to the account before is void.
    await tx.query('delete from auth.one_time_tokens where user_id = $1::uuid', [user.id]);
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

/**
 * Whether the token was sent to the address the user still has (or still wants): the link of an
 * e-mail change to the current address needs that change still pending.
 */
function stillMatches(user: UserRecord, token: ConsumedToken): boolean {
  if (token.type === 'email_change_token_current' && !user.new_email) return false;
  const address = token.type === 'email_change_token_new' ? user.new_email : user.email;
  return (address ?? '').toLowerCase() === token.relatesTo.toLowerCase();
}

interface Verified {
  user: UserRecord;
  json: Record<string, unknown>;
  session: Awaited<ReturnType<typeof createSession>>;
}

/**
 * Whose token a code typed with `email` is checked against, and of which kind. For an e-mail
 * change the address may be the current one (with secure e-mail change, when a link was sent
 * to it) or the new one, as GoTrue's `FindUserForEmailChange` looks them up.
 */
async function codeOwner(
  q: Queryable,
  ctx: AppContext,
  type: VerifyType,
  email: string,
): Promise<{ user: UserRecord; tokenType: OneTimeTokenType } | null> {
  if (type !== 'email_change') {
    const user = await findUserByEmail(q, email);
    return user && { user, tokenType: TOKEN_TYPES[type][0]! };
  }
  if (ctx.config.auth.doubleConfirmChanges) {
    const current = await findUserByEmail(q, email);
    if (
      current?.new_email &&
      (await hasOneTimeToken(q, current.id, 'email_change_token_current'))
    ) {
      return { user: current, tokenType: 'email_change_token_current' };
    }
  }
  const pending = await findUserByPendingEmail(q, email);
  return pending && { user: pending, tokenType: 'email_change_token_new' };
}

/**
 * Uses up a token (by its link secret, or by the user's address and code) and starts a
 * session, all in one transaction; or, for the first link of a secure e-mail change, records
 * it and starts nothing (`FIRST_OF_TWO`). Errors are returned rather than thrown so that a
 * wrong code's count is committed.
 */
async function verifyAndSignIn(
  c: Context<ApiEnv>,
  ctx: AppContext,
  type: VerifyType,
  credential: { tokenHash: string } | { email: string; code: string },
): Promise<Verified | typeof FIRST_OF_TWO> {
  const expiry = ctx.config.auth.emailOtpExpirySeconds;
  const outcome = await c
    .get('db')
    .transaction(async (tx): Promise<Verified | typeof FIRST_OF_TWO | AuthError> => {
      let token: ConsumedToken;
      if ('tokenHash' in credential) {
        const consumed = await consumeTokenHash(
          tx,
          TOKEN_TYPES[type],
          credential.tokenHash,
          expiry,
        );
        if (!consumed) return linkInvalid();
        token = consumed;
      } else {
        const owner = await codeOwner(tx, ctx, type, credential.email);
        if (!owner) return codeInvalid();
        const checked = await consumeCode(
          tx,
          ctx.keys.jwtSecret,
          owner.user.id,
          owner.tokenType,
          credential.code,
          expiry,
        );
        if (!checked.ok) return codeInvalid();
        token = checked.token;
      }
      const user = await findUserById(tx, token.userId);
      if (!user || !stillMatches(user, token)) {
        return 'tokenHash' in credential ? linkInvalid() : codeInvalid();
      }
      if (user.is_banned) return forbidden('user_banned', 'User is banned');
      const applied = await apply(tx, ctx, type, user);
      if (applied) return applied;
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
    if (verified === FIRST_OF_TWO) {
      return c.json({ msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' });
    }
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
    const target = allowedRedirect(ctx, c.req.query('redirect_to')) ?? ctx.siteUrl();
    const fragment = new URLSearchParams();
    try {
      const type = verifyType(rawType);
      const verified = await verifyAndSignIn(c, ctx, type, { tokenHash: token });
      if (verified === FIRST_OF_TWO) {
        fragment.set('message', SINGLE_CONFIRMATION_ACCEPTED);
        fragment.set('sb', '');
      } else {
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
      }
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
