import type { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import type { ApiEnv } from '../http/api-env.ts';
import { queueAccountMail, takeAccountMailAllowance } from './account-mail.ts';
import { badRequest } from './errors.ts';
import type { AuthLimits } from './limits.ts';
import { allowedRedirect } from './redirects.ts';
import { emailLookupKey, findUserByEmail } from './users.ts';
import { readJsonObject, stringField, validateEmail } from './validation.ts';

/**
 * `POST /recover`: e-mails a link (and code) to set a new password, valid once for
 * `[auth.email] otp_expiry`. The answer is `{}` whether or not the address has an account, and
 * the limits count unknown addresses alike, so nothing here tells who has one. The message is
 * written and sent by a background job (`account-mail-job.ts`), so the answer does not wait
 * for it either.
 */
export function registerRecover(app: Hono<ApiEnv>, ctx: AppContext, limits: AuthLimits): void {
  app.post('/recover', async (c) => {
    const body = await readJsonObject(c);
    const email = stringField(body, 'email');
    if (email === '') {
      throw badRequest('validation_failed', 'Password recovery requires an email');
    }
    const address = validateEmail(email);
    if (stringField(body, 'code_challenge') !== '') {
      // auth-js sends one only with flowType "pkce"; this server issues implicit-flow links.
      throw badRequest('validation_failed', 'PKCE flow is not supported for password recovery');
    }
    await limits.countEmail(c, await emailLookupKey(c.get('db'), address));
    const user = await findUserByEmail(c.get('db'), address);
    if (user && !user.is_banned) {
      const redirectTo = allowedRedirect(ctx, c.req.query('redirect_to'));
      await queueAccountMail(ctx, c.get('db'), user.id, 'recovery', redirectTo);
    } else {
      // Counted as if it were sent: past the installation's allowance, both answer 429.
      await takeAccountMailAllowance(ctx, c.get('db'));
    }
    return c.json({});
  });
}
