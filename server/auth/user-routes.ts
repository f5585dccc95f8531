import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { queueAccountMail } from './account-mail.ts';
import { requireSignedIn } from './authenticate.ts';
import { AuthError, badRequest, forbidden, unexpected, unprocessable } from './errors.ts';
import { hasVerifiedFactor } from './mfa.ts';
import { requireReauthentication } from './reauthenticate.ts';
import type { AuthLimits } from './limits.ts';
import { voidOneTimeTokens } from './one-time-tokens.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { LogoutScope } from './sessions.ts';
import { deleteSessions, findSession } from './sessions.ts';
import { allowedRedirect } from './redirects.ts';
import { userJson } from './user-json.ts';
import {
  emailLookupKey,
  findUserByEmail,
  findUserById,
  updatePasswordHash,
  updateUserMetadata,
} from './users.ts';
import {
  checkPasswordStrength,
  objectField,
  optionalStringField,
  readJsonObject,
  stringField,
  validateEmail,
} from './validation.ts';

const LOGOUT_SCOPES: readonly string[] = ['global', 'local', 'others'];

const currentPasswordRequired = (code: string) =>
  badRequest(code, 'Current password required when setting new password.');

/**
 * `GET /user`, `PUT /user` and `POST /logout`: what a signed-in user does with their token.
 * A new password needs the current one (GoTrue's `current_password`), except in a session
 * begun from a password recovery link. A new e-mail address is confirmed by a link sent to it
 * and, with `[auth.email] double_confirm_changes`, by one sent to the current address too
 * (GoTrue's secure e-mail change); until then the old address stays, and the new one shows as
 * `new_email`. An account with a verified second factor changes either only in an aal2
 * session.
 */
export function registerUserRoutes(app: Hono<ApiEnv>, ctx: AppContext, limits: AuthLimits): void {
  app.get('/user', async (c) => {
    const { user, claims } = await requireSignedIn(c);
    const audience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    if (audience !== (user.aud ?? 'authenticated')) {
      throw badRequest('validation_failed', "Token audience doesn't match request audience");
    }
    return c.json(await userJson(c.get('db'), user));
  });

  app.put('/user', async (c) => {
    const { user, sessionId } = await requireSignedIn(c);
    const body = await readJsonObject(c);
    const email = stringField(body, 'email');
    const phone = stringField(body, 'phone');
    const password = optionalStringField(body, 'password');
    const currentPassword = optionalStringField(body, 'current_password');
    const nonce = stringField(body, 'nonce');
    const data = objectField(body, 'data');
    const appMetadata = objectField(body, 'app_metadata');

    const newEmail =
      email !== '' && validateEmail(email) !== (user.email ?? '').toLowerCase()
        ? validateEmail(email)
        : null;
    if (phone !== '' && phone !== user.phone) {
      throw unprocessable('feature_disabled', 'Changing the phone number is not supported');
    }
    if (password !== undefined) checkPasswordStrength(password);
    if (appMetadata) {
      throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
    }
    const session = sessionId ? await findSession(c.get('db'), sessionId) : null;
    if (
      ((password !== undefined && password !== '') || newEmail !== null) &&
      session?.aal !== 'aal2' &&
      (await hasVerifiedFactor(c.get('db'), user.id))
    ) {
      // As GoTrue: whoever holds a password-only session of an account with a second factor
      // may not take the account over by changing its address or password.
      throw new AuthError(
        401,
        'insufficient_aal',
        'AAL2 session is required to update email or password when MFA is enabled.',
      );
    }
    if (newEmail !== null) {
      if (!ctx.config.mail.smtp) {
        throw unprocessable(
          'feature_disabled',
          'Changing the email address needs e-mail delivery (SMTP), which is not set up',
        );
      }
      const holder = await findUserByEmail(c.get('db'), newEmail);
      if (holder && holder.id !== user.id) {
        throw unprocessable(
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
      await limits.countEmail(c, await emailLookupKey(c.get('db'), newEmail));
    }
    let passwordHash: string | undefined;
    if (password !== undefined) {
      await requireReauthentication(ctx, c.get('db'), user, session, nonce);
      const recovering = session?.amr.some((entry) => entry.method === 'recovery') ?? false;
      if (!recovering) {
        if (currentPassword === undefined || currentPassword === '') {
          throw currentPasswordRequired('current_password_required');
        }
        if (
          !(await verifyPassword(
            ctx.cpu,
            c.get('scope').lane,
            currentPassword,
            user.encrypted_password,
          ))
        ) {
          throw currentPasswordRequired('current_password_mismatch');
        }
      }
      if (await verifyPassword(ctx.cpu, c.get('scope').lane, password, user.encrypted_password)) {
        throw unprocessable(
          'same_password',
          'New password should be different from the old password.',
        );
      }
      passwordHash = await hashPassword(
        ctx.cpu,
        c.get('scope').lane,
        password,
        ctx.config.auth.bcryptCost,
      );
    }

    const now = new Date().toISOString();
    const updated = await c.get('db').transaction(async (tx) => {
      if (passwordHash !== undefined) {
        await updatePasswordHash(tx, user.id, passwordHash, now);
        await voidOneTimeTokens(tx, user.id);
        // As GoTrue: whoever knew the old password is signed out everywhere else.
        await deleteSessions(tx, user.id, sessionId, sessionId ? 'others' : 'global');
      }
      if (data) await updateUserMetadata(tx, user.id, data, now);
      if (newEmail !== null) {
        // A new request replaces the last one, whose links work no more.
        await tx.query(
          `update auth.users
              set email_change = $2, email_change_confirm_status = 0, updated_at = $3::timestamptz
            where id = $1::uuid`,
          [user.id, newEmail, now],
        );
        await tx.query(
          `delete from auth.one_time_tokens where user_id = $1::uuid
              and token_type in ('email_change_token_new', 'email_change_token_current')`,
          [user.id],
        );
        const redirectTo = allowedRedirect(ctx, c.req.query('redirect_to'));
        await queueAccountMail(ctx, tx, user.id, 'email_change', redirectTo);
        // GoTrue's secure e-mail change: the current address confirms too.
        if (ctx.config.auth.doubleConfirmChanges && (user.email ?? '') !== '') {
          await queueAccountMail(ctx, tx, user.id, 'email_change_current', redirectTo);
        }
      }
      const fresh = await findUserById(tx, user.id);
      return fresh && userJson(tx, fresh);
    });
    if (!updated) throw unexpected('Error updating user');
    return c.json(updated);
  });

  app.post('/logout', async (c) => {
    const { user, sessionId } = await requireSignedIn(c);
    const scope = c.req.query('scope') || 'global';
    if (!LOGOUT_SCOPES.includes(scope)) {
      throw badRequest('validation_failed', `Unsupported logout scope ${JSON.stringify(scope)}`);
    }
    await deleteSessions(c.get('db'), user.id, sessionId, scope as LogoutScope);
    return c.body(null, 204);
  });
}
