import type { Context, Hono } from 'hono';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { badRequest, invalidCredentials, unprocessable } from './errors.ts';
import { rateLimited, type AuthLimits } from './limits.ts';
import { verifyPassword } from './passwords.ts';
import { clientInfo, limiterAddress, setSessionHeaders } from './request-info.ts';
import { createSession, rotateRefreshToken } from './sessions.ts';
import { REFRESH_TOKEN_PATTERN, issueAccessToken, sessionResponse } from './tokens.ts';
import { userJson } from './user-json.ts';
import { emailLookupKey, findUserByEmail, findUserById, markSignedIn } from './users.ts';
import { passwordWeakness, readJsonObject, stringField } from './validation.ts';

/**
 * The password grant. Every request counts against the client's `sign_in_sign_ups` allowance;
 * each attempt then passes the guess limiter (`guess-limiter.ts`), which may hold it for its
 * turn or refuse it with 429, and is told how it ended. Unknown addresses are limited alike,
 * and a decoy hash is checked for them, so neither the answer nor its timing tells whether an
 * account exists.
 */
async function passwordGrant(c: Context<ApiEnv>, ctx: AppContext, limits: AuthLimits) {
  await limits.countSignInOrSignUp(c);
  const body = await readJsonObject(c);
  const email = stringField(body, 'email');
  const phone = stringField(body, 'phone');
  const password = stringField(body, 'password');
  if (email !== '' && phone !== '') {
    throw badRequest(
      'validation_failed',
      'Only an email address or phone number should be provided on login.',
    );
  }
  if (phone !== '') throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
  if (email === '') throw badRequest('validation_failed', 'missing email or phone');

  // Capped in length: no account has a longer address, and the limiter's memory stays bounded.
  const account = await emailLookupKey(c.get('db'), email.slice(0, 255));
  const decision = await limits.guesses.begin(c.get('db'), account, limiterAddress(c));
  if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
  const { attempt } = decision;
  if (attempt.waitMs > 0) await sleep(attempt.waitMs);

  let user;
  let matches;
  try {
    user = await findUserByEmail(c.get('db'), email);
    matches = await verifyPassword(
      ctx.cpu,
      c.get('scope').lane,
      password,
      user?.encrypted_password,
    );
  } catch (error) {
    // The server's failure (a busy pool, a lost database) is not a guess.
    await attempt.abandoned();
    throw error;
  }
  if (!user || !matches) throw invalidCredentials();
  await attempt.succeeded();
  if (user.is_banned) throw badRequest('user_banned', 'User is banned');
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');

  const now = new Date().toISOString();
  const signedIn = await c.get('db').transaction(async (tx) => {
    const started = await createSession(tx, user.id, clientInfo(c), now);
    await markSignedIn(tx, user.id, now);
    const fresh = (await findUserById(tx, user.id)) ?? user;
    return { ...started, user: fresh, json: await userJson(tx, fresh) };
  });
  const access = issueAccessToken(ctx, signedIn.user, signedIn.session);
  setSessionHeaders(c, user.id, signedIn.session.id);
  // As GoTrue: a password that no longer meets the policy still signs in, with a warning.
  const weakness = passwordWeakness(password) ?? undefined;
  return c.json(sessionResponse(access, signedIn.refreshToken, signedIn.json, weakness));
}

/** The refresh-token grant: a new access token and a new refresh token (rotation). */
async function refreshTokenGrant(c: Context<ApiEnv>, ctx: AppContext, limits: AuthLimits) {
  await limits.countTokenRefresh(c);
  const body = await readJsonObject(c);
  const token = stringField(body, 'refresh_token');
  if (!REFRESH_TOKEN_PATTERN.test(token)) {
    throw badRequest('validation_failed', 'Refresh token is not valid');
  }
  const rotation = await rotateRefreshToken(c.get('db'), token, {
    jwtSecret: ctx.keys.jwtSecret,
    reuseIntervalSeconds: ctx.config.auth.refreshTokenReuseIntervalSeconds,
    client: clientInfo(c),
  });
  const access = issueAccessToken(ctx, rotation.user, rotation.session);
  setSessionHeaders(c, rotation.user.id, rotation.session.id);
  const user = await userJson(c.get('db'), rotation.user);
  return c.json(sessionResponse(access, rotation.refreshToken, user));
}

/** `POST /token?grant_type=password|refresh_token`. */
export function registerToken(app: Hono<ApiEnv>, ctx: AppContext, limits: AuthLimits): void {
  app.post('/token', async (c) => {
    switch (c.req.query('grant_type')) {
      case 'password':
        return passwordGrant(c, ctx, limits);
      case 'refresh_token':
        return refreshTokenGrant(c, ctx, limits);
      default:
        // Sic: GoTrue names the problem in the message and uses this code.
        throw badRequest('invalid_credentials', 'unsupported_grant_type');
    }
  });
}
