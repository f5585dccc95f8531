import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { ScopedDatabase } from '../db/database.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { queueAccountMail } from './account-mail.ts';
import { requireSignedIn } from './authenticate.ts';
import { AuthError, badRequest, unprocessable } from './errors.ts';
import type { AuthLimits } from './limits.ts';
import { consumeCode } from './one-time-tokens.ts';
import type { TokenSession } from './tokens.ts';
import type { UserRecord } from './users.ts';
import { emailLookupKey } from './users.ts';

/** GoTrue: a session begun within this many seconds counts as a recent sign-in. */
const RECENT_SIGN_IN_SECONDS = 24 * 3600;

/**
 * `GET /reauthenticate` (supabase-js `reauthenticate()`): e-mails the signed-in user a code
 * (GoTrue's nonce) that lets a session begun more than a day ago set a new password, where
 * `[auth.email] secure_password_change` asks for one. The answer is `{}`.
 */
export function registerReauthenticate(
  app: Hono<ApiEnv>,
  ctx: AppContext,
  limits: AuthLimits,
): void {
  app.get('/reauthenticate', async (c) => {
    const { user } = await requireSignedIn(c);
    if (!user.email) {
      throw badRequest(
        'validation_failed',
        'Reauthentication requires the user to have an email or a phone number',
      );
    }
    if (!user.email_confirmed_at) {
      throw unprocessable('email_not_confirmed', 'Please verify your email first.');
    }
    if (!ctx.config.mail.smtp) {
      throw unprocessable(
        'feature_disabled',
        'Reauthentication needs e-mail delivery (SMTP), which is not set up',
      );
    }
    await limits.countEmail(c, await emailLookupKey(c.get('db'), user.email));
    await queueAccountMail(ctx, c.get('db'), user.id, 'reauthentication', null);
    return c.json({});
  });
}

/**
 * GoTrue's `update_password_require_reauthentication`: with `[auth.email]
 * secure_password_change`, a session begun more than a day ago sets a new password only with the
 * e-mailed code (`nonce`), which is used up here, also when the change then fails for another
 * reason (as GoTrue's). A wrong code counts against it.
 */
export async function requireReauthentication(
  ctx: AppContext,
  db: ScopedDatabase,
  user: UserRecord,
  session: TokenSession | null,
  nonce: string,
): Promise<void> {
  if (!ctx.config.auth.securePasswordChange) return;
  if (session && Date.now() / 1000 - session.createdAt <= RECENT_SIGN_IN_SECONDS) return;
  if (nonce === '') {
    throw badRequest('reauthentication_needed', 'Password update requires reauthentication');
  }
  // Committed whatever the outcome, so that a wrong code's count stays.
  const checked = await db.transaction((tx) =>
    consumeCode(
      tx,
      ctx.keys.jwtSecret,
      user.id,
      'reauthentication_token',
      nonce,
      ctx.config.auth.emailOtpExpirySeconds,
    ),
  );
  if (!checked.ok || checked.token.relatesTo.toLowerCase() !== (user.email ?? '').toLowerCase()) {
    throw new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid');
  }
}
