import type { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { isPostgresError } from '../db/database.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { requireServiceRole } from './authenticate.ts';
import { AuthError, badRequest, unexpected, unprocessable } from './errors.ts';
import { issueOneTimeToken } from './one-time-tokens.ts';
import { hashPassword } from './passwords.ts';
import { allowedRedirect } from './redirects.ts';
import {
  DuplicateEmailError,
  DuplicateIdError,
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
} from './users.ts';
import { userJson } from './user-json.ts';
import {
  booleanField,
  checkPasswordLength,
  isUuid,
  objectField,
  optionalStringField,
  readJsonObject,
  stringField,
  validateEmail,
} from './validation.ts';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const BCRYPT_HASH = /^\$2[aby]?\$\d{2}\$[./A-Za-z0-9]{53}$/;

const emailExists = () =>
  unprocessable('email_exists', 'A user with this email address has already been registered');

/**
 * The part of GoTrue's admin API that tests and benchmarks use to seed users:
 * `POST /admin/users`, `DELETE /admin/users/{id}` and `POST /admin/generate_link` (types
 * `recovery`, `email_change_new` and `email_change_current`), for the service-role key only.
 */
export function registerAdmin(app: Hono<ApiEnv>, ctx: AppContext): void {
  // GoTrue's generateLink: the recovery link and code an e-mail would carry, without the
  // e-mail, for a server-side caller that delivers it itself.
  app.post('/admin/generate_link', async (c) => {
    requireServiceRole(c);
    const body = await readJsonObject(c);
    const type = stringField(body, 'type');
    if (type !== 'recovery' && type !== 'email_change_new' && type !== 'email_change_current') {
      throw badRequest('validation_failed', 'Invalid email action link type requested');
    }
    if (type === 'email_change_current' && !ctx.config.auth.doubleConfirmChanges) {
      throw badRequest(
        'validation_failed',
        'Enable secure email change to generate link for current email',
      );
    }
    const address = validateEmail(stringField(body, 'email'));
    const user = await findUserByEmail(c.get('db'), address);
    if (!user) throw new AuthError(404, 'user_not_found', 'User with this email not found');
    let newEmail: string | null = null;
    if (type !== 'recovery') {
      newEmail = validateEmail(stringField(body, 'new_email'));
      const holder = await findUserByEmail(c.get('db'), newEmail);
      if (holder) throw emailExists();
    }
    const redirectTo =
      allowedRedirect(ctx, stringField(body, 'redirect_to') || undefined) ?? ctx.siteUrl();
    const token = await c.get('db').transaction(async (tx) => {
      if (newEmail !== null) {
        await tx.query(
          `update auth.users
              set email_change = $2, email_change_sent_at = now(), email_change_confirm_status = 0
            where id = $1::uuid`,
          [user.id, newEmail],
        );
        return type === 'email_change_current'
          ? issueOneTimeToken(
              tx,
              ctx.keys.jwtSecret,
              user.id,
              'email_change_token_current',
              user.email ?? address,
            )
          : issueOneTimeToken(tx, ctx.keys.jwtSecret, user.id, 'email_change_token_new', newEmail);
      }
      const issued = await issueOneTimeToken(
        tx,
        ctx.keys.jwtSecret,
        user.id,
        'recovery_token',
        user.email ?? address,
      );
      await tx.query('update auth.users set recovery_sent_at = now() where id = $1::uuid', [
        user.id,
      ]);
      return issued;
    });
    const fresh = (await findUserById(c.get('db'), user.id)) ?? user;
    const verificationType = type === 'recovery' ? 'recovery' : 'email_change';
    const query = new URLSearchParams({
      token: token.tokenHash,
      type: verificationType,
      redirect_to: redirectTo,
    });
    return c.json({
      ...(await userJson(c.get('db'), fresh)),
      action_link: `${ctx.publicUrl()}/auth/v1/verify?${query}`,
      email_otp: token.code,
      hashed_token: token.tokenHash,
      verification_type: verificationType,
      redirect_to: redirectTo,
    });
  });

  app.post('/admin/users', async (c) => {
    requireServiceRole(c);
    const body = await readJsonObject(c);
    const email = stringField(body, 'email');
    const phone = stringField(body, 'phone');
    const password = optionalStringField(body, 'password');
    const passwordHash = stringField(body, 'password_hash');
    const id = stringField(body, 'id');
    const userMetadata = objectField(body, 'user_metadata') ?? {};
    const appMetadata = objectField(body, 'app_metadata');
    const emailConfirm = booleanField(body, 'email_confirm');

    if (email === '' && phone === '') {
      throw badRequest(
        'validation_failed',
        'Cannot create a user without either an email or phone',
      );
    }
    if (phone !== '') throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
    const address = validateEmail(email);
    if (await findUserByEmail(c.get('db'), address)) throw emailExists();
    if (password && passwordHash) {
      throw badRequest(
        'validation_failed',
        'Only a password or a password hash should be provided',
      );
    }
    if (passwordHash && !BCRYPT_HASH.test(passwordHash)) {
      throw badRequest('validation_failed', 'password_hash must be a bcrypt hash');
    }
    if (id !== '' && !isUuid(id)) {
      throw badRequest('validation_failed', 'ID must conform to the uuid v4 format');
    }
    if (id === NIL_UUID) throw badRequest('validation_failed', 'ID cannot be a nil uuid');
    if (password) checkPasswordLength(password);

    // Without a password the user cannot sign in with one (GoTrue sets a random one nobody
    // knows; an empty hash has the same effect without the cost of hashing it).
    const hash =
      passwordHash ||
      (password
        ? await hashPassword(ctx.cpu, c.get('scope').lane, password, ctx.config.auth.bcryptCost)
        : '');
    const userId = id || randomUUID();
    try {
      const json = await c.get('db').transaction(async (tx) => {
        await insertUser(tx, {
          id: userId,
          email: address,
          passwordHash: hash,
          userMetadata,
          confirmed: emailConfirm,
          now: new Date().toISOString(),
          ...(appMetadata ? { appMetadata } : {}),
          identityWithMetadata: false,
        });
        const user = await findUserById(tx, userId);
        if (!user) throw new Error('the new user vanished inside its own transaction');
        return userJson(tx, user);
      });
      return c.json(json);
    } catch (error) {
      if (error instanceof DuplicateEmailError) throw emailExists();
      if (error instanceof DuplicateIdError) {
        throw unprocessable('user_already_exists', 'A user with this ID already exists');
      }
      console.error('admin user creation failed:', error);
      throw unexpected('Database error creating new user');
    }
  });

  app.delete('/admin/users/:id', async (c) => {
    requireServiceRole(c);
    const id = c.req.param('id');
    if (!isUuid(id)) throw new AuthError(404, 'validation_failed', 'user_id must be an UUID');
    // auth-js sends {"should_soft_delete": false}; the body is optional.
    if ((await c.req.text()).trim() !== '') {
      if (booleanField(await readJsonObject(c), 'should_soft_delete')) {
        throw badRequest('validation_failed', 'Soft deletion of users is not supported');
      }
    }
    if (!(await findUserById(c.get('db'), id))) {
      throw new AuthError(404, 'user_not_found', 'User not found');
    }
    try {
      await c.get('db').transaction((tx) => deleteUser(tx, id));
    } catch (error) {
      // Typically a row of the app still refers to the user without ON DELETE CASCADE.
      console.error('admin user deletion failed:', error);
      if (isPostgresError(error) && error.code === '23503') {
        throw new AuthError(
          409,
          'conflict',
          'Database error deleting user: it is still referenced',
        );
      }
      throw unexpected('Database error deleting user');
    }
    return c.json({});
  });
}
