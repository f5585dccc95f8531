import type { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { queueAccountMail } from './account-mail.ts';
import { badRequest, unexpected, unprocessable } from './errors.ts';
import { invitationAllowsSignUp, takeInvitationToken } from './invited-sign-up.ts';
import type { AuthLimits } from './limits.ts';
import { hashPassword } from './passwords.ts';
import { allowedRedirect } from './redirects.ts';
import { clientInfo, setSessionHeaders } from './request-info.ts';
import { createSession } from './sessions.ts';
import { decoyUserJson } from './signup-decoy.ts';
import { issueAccessToken, sessionResponse } from './tokens.ts';
import {
  DuplicateEmailError,
  emailLookupKey,
  findUserByEmail,
  findUserById,
  insertUser,
  markSignedIn,
} from './users.ts';
import { userJson } from './user-json.ts';
import {
  checkPasswordStrength,
  objectField,
  readJsonObject,
  stringField,
  validateEmail,
} from './validation.ts';

/** Whether new sign-ups confirm their address by a link: asked for, and SMTP can send it. */
export const confirmationsRequired = (ctx: AppContext) =>
  ctx.config.auth.enableConfirmations && ctx.config.mail.smtp !== null;

const userExists = () => unprocessable('user_already_exists', 'User already registered');
const signupDisabled = () =>
  unprocessable('signup_disabled', 'Signups not allowed for this instance');

/**
 * `POST /signup` with e-mail and password. Where confirmations are on and SMTP is configured,
 * the new user is unconfirmed and gets a link by e-mail (the answer is the user alone, as
 * GoTrue's), and an address that has an account gets an answer of the same kind, so that
 * sign-up does not tell who has one; otherwise, as in Supabase local development, the new user
 * is confirmed and signed in at once: the answer is a session, and a taken address is a 422.
 * Requests count against the client's `sign_in_sign_ups` allowance. When the installation has
 * closed sign-up, only the holder of a valid invitation (`data.invitation_token`) may create an
 * account, for the address the invitation was sent to; everyone else gets GoTrue's answer.
 */
export function registerSignup(app: Hono<ApiEnv>, ctx: AppContext, limits: AuthLimits): void {
  app.post('/signup', async (c) => {
    await limits.countSignInOrSignUp(c);
    const open = ctx.config.auth.enableSignup;
    // GoTrue refuses a closed sign-up before reading the request.
    const body = open ? await readJsonObject(c) : await readJsonObject(c).catch(() => null);
    if (body === null) throw signupDisabled();
    const email = stringField(body, 'email');
    const phone = stringField(body, 'phone');
    const password = stringField(body, 'password');
    const data = objectField(body, 'data') ?? {};
    // Never stored: it is a credential.
    const invitationToken = takeInvitationToken(data);
    if (!open && invitationToken === null) throw signupDisabled();

    // The checks in GoTrue's order, so that each mistake gets the answer GoTrue gives it.
    if (email === '' && phone === '') {
      throw unprocessable('anonymous_provider_disabled', 'Anonymous sign-ins are disabled');
    }
    if (password === '') throw badRequest('validation_failed', 'Signup requires a valid password');
    checkPasswordStrength(password);
    if (email !== '' && phone !== '') {
      throw badRequest(
        'validation_failed',
        'Only an email address or phone number should be provided on signup.',
      );
    }
    if (phone !== '') throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
    const address = validateEmail(email);
    const invited =
      invitationToken !== null &&
      (await invitationAllowsSignUp(c.get('db'), invitationToken, address));
    if (!open && !invited) throw signupDisabled();
    // An invitation proved the address; anyone else confirms it by a link, where one can be sent.
    const confirmByLink = confirmationsRequired(ctx) && !invited;
    const existing = await findUserByEmail(c.get('db'), address);
    // As GoTrue: where addresses are confirmed at once, and to the holder of an invitation to
    // this address, a taken address is said to be taken.
    if (existing && !confirmByLink) throw userExists();
    // Otherwise every address is answered alike (GoTrue answers 200), and counted and timed alike.
    if (confirmByLink) await limits.countEmail(c, await emailLookupKey(c.get('db'), address));
    // Hashing takes a while; it happens before the transaction so no locks are held meanwhile.
    // It happens for a taken address too, so that the answer takes as long.
    const passwordHash = await hashPassword(
      ctx.cpu,
      c.get('scope').lane,
      password,
      ctx.config.auth.bcryptCost,
    );
    const redirectTo = allowedRedirect(ctx, c.req.query('redirect_to'));
    if (existing) {
      if (existing.email_confirmed_at) {
        return c.json(decoyUserJson(ctx.keys.jwtSecret, address, data));
      }
      // Not confirmed yet: as GoTrue, the link is sent again, and nothing else changes (who
      // asks may not be who signed up).
      await queueAccountMail(ctx, c.get('db'), existing.id, 'signup', redirectTo);
      return c.json(await userJson(c.get('db'), existing));
    }
    const id = randomUUID();
    const now = new Date().toISOString();
    let created;
    try {
      created = await c.get('db').transaction(async (tx) => {
        await insertUser(tx, {
          id,
          email: address,
          passwordHash,
          userMetadata: data,
          confirmed: !confirmByLink,
          now,
          identityWithMetadata: true,
        });
        if (confirmByLink) {
          await queueAccountMail(ctx, tx, id, 'signup', redirectTo);
          const user = await findUserById(tx, id);
          if (!user) throw new Error('the new user vanished inside its own transaction');
          return { user, json: await userJson(tx, user) };
        }
        const started = await createSession(tx, id, clientInfo(c), now);
        await markSignedIn(tx, id, now);
        // Read back: triggers on auth.users may have changed the row.
        const user = await findUserById(tx, id);
        if (!user) throw new Error('the new user vanished inside its own transaction');
        return { ...started, user, json: await userJson(tx, user) };
      });
    } catch (error) {
      // A sign-up of the same address at the same moment took it first.
      if (error instanceof DuplicateEmailError) {
        if (!confirmByLink) throw userExists();
        return c.json(decoyUserJson(ctx.keys.jwtSecret, address, data));
      }
      // Most likely a trigger of the app's migrations failed: GoTrue's answer, and the whole
      // sign-up is rolled back.
      console.error('sign-up failed:', error);
      throw unexpected('Database error saving new user');
    }
    // Unconfirmed: GoTrue answers with the user alone; the session comes with the link.
    if (!('session' in created)) return c.json(created.json);
    const access = issueAccessToken(ctx, created.user, created.session);
    setSessionHeaders(c, id, created.session.id);
    return c.json(sessionResponse(access, created.refreshToken, created.json));
  });
}
