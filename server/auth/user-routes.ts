import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { requireSignedIn } from './authenticate.ts';
import { badRequest, forbidden, unexpected, unprocessable } from './errors.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { LogoutScope } from './sessions.ts';
import { deleteSessions } from './sessions.ts';
import { userJson } from './user-json.ts';
import { findUserById, updatePasswordHash, updateUserMetadata } from './users.ts';
import {
  checkPasswordStrength,
  objectField,
  optionalStringField,
  readJsonObject,
  stringField,
  validateEmail,
} from './validation.ts';

const LOGOUT_SCOPES: readonly string[] = ['global', 'local', 'others'];

/** `GET /user`, `PUT /user` and `POST /logout`: what a signed-in user does with their token. */
export function registerUserRoutes(app: Hono<ApiEnv>, ctx: AppContext): void {
  app.get('/user', async (c) => {
    const { user, claims } = await requireSignedIn(c, ctx);
    const audience = Array.isArray(claims.aud) ? claims.aud[0] : claims.aud;
    if (audience !== (user.aud ?? 'authenticated')) {
      throw badRequest('validation_failed', "Token audience doesn't match request audience");
    }
    return c.json(await userJson(ctx.db, user));
  });

  app.put('/user', async (c) => {
    const { user, sessionId } = await requireSignedIn(c, ctx);
    const body = await readJsonObject(c);
    const email = stringField(body, 'email');
    const phone = stringField(body, 'phone');
    const password = optionalStringField(body, 'password');
    const data = objectField(body, 'data');
    const appMetadata = objectField(body, 'app_metadata');

    if (email !== '' && validateEmail(email) !== (user.email ?? '').toLowerCase()) {
      // GoTrue would send a confirmation message; this server sends no mail.
      throw unprocessable('feature_disabled', 'Changing the email address is not supported');
    }
    if (phone !== '' && phone !== user.phone) {
      throw unprocessable('feature_disabled', 'Changing the phone number is not supported');
    }
    if (password !== undefined) checkPasswordStrength(password);
    if (appMetadata) {
      throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
    }
    let passwordHash: string | undefined;
    if (password !== undefined) {
      if (await verifyPassword(ctx.cpu, password, user.encrypted_password)) {
        throw unprocessable(
          'same_password',
          'New password should be different from the old password.',
        );
      }
      passwordHash = await hashPassword(ctx.cpu, password, ctx.config.auth.bcryptCost);
    }

    const now = new Date().toISOString();
    const updated = await ctx.db.transaction(async (tx) => {
      if (passwordHash !== undefined) {
        await updatePasswordHash(tx, user.id, passwordHash, now);
        // As GoTrue: whoever knew the old password is signed out everywhere else.
        await deleteSessions(tx, user.id, sessionId, sessionId ? 'others' : 'global');
      }
      if (data) await updateUserMetadata(tx, user.id, data, now);
      const fresh = await findUserById(tx, user.id);
      return fresh && userJson(tx, fresh);
    });
    if (!updated) throw unexpected('Error updating user');
    return c.json(updated);
  });

  app.post('/logout', async (c) => {
    const { user, sessionId } = await requireSignedIn(c, ctx);
    const scope = c.req.query('scope') || 'global';
    if (!LOGOUT_SCOPES.includes(scope)) {
      throw badRequest('validation_failed', `Unsupported logout scope ${JSON.stringify(scope)}`);
    }
    await deleteSessions(ctx.db, user.id, sessionId, scope as LogoutScope);
    return c.body(null, 204);
  });
}
