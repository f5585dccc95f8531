import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { isPostgresError } from '../db/database.ts';
import { AuthError } from './errors.ts';

/** The job kind that sends the auth service's e-mails (written by `server/mail/`). */
export const ACCOUNT_MAIL_KIND = 'auth.mail';

/**
 * The e-mails of the auth service: each carries one link and its code (a reauthentication, the
 * code alone) for one account. An e-mail change sends `email_change` to the new address and,
 * with secure e-mail change (`[auth.email] double_confirm_changes`), `email_change_current` to
 * the current one.
 */
export type AccountMailKind =
  'recovery' | 'email_change' | 'email_change_current' | 'signup' | 'reauthentication';

/**
 * SQL for a digest of the password user `$1` has now. The job that writes an account e-mail
 * compares it with the one recorded when the e-mail was asked for: a link asked for before a
 * password change is not made afterwards (the change voids the links already made).
 */
export const PASSWORD_STAMP_SQL = `(select encode(sha256(convert_to(coalesce(u.encrypted_password, ''), 'UTF8')), 'hex')
     from auth.users u where u.id = $1::uuid)`;

/**
 * What the database raises when an e-mail would pass the installation's allowance
 * (`private.take_mail_allowance`, migration 20261128000501).
 */
const MAIL_LIMIT_SQLSTATE = 'PT429';

/** GoTrue's answer past `[auth.rate_limit] email_sent`. */
const emailRateLimitExceeded = () =>
  new AuthError(429, 'over_email_send_rate_limit', 'email rate limit exceeded');

/**
 * Queues an account e-mail for `userId`, in the caller's transaction or on its own, and wakes
 * the job runner. The token is made by the job, when the message is written, so that no
 * secret is ever stored readable (not even in the job's payload); the payload records a digest
 * of the password at the time of asking (`PASSWORD_STAMP_SQL`). Answers false when this
 * database has no job queue (the platform without the app's migrations): nothing is sent.
 */
export async function queueAccountMail(
  ctx: AppContext,
  q: Queryable,
  userId: string,
  kind: AccountMailKind,
  redirectTo: string | null,
): Promise<boolean> {
  try {
    await q.query(
      `select private.enqueue_job($2, $3::jsonb || jsonb_build_object('password_stamp', ${PASSWORD_STAMP_SQL}),
              null, null, now(), 5)`,
      [
        userId,
        ACCOUNT_MAIL_KIND,
        JSON.stringify({ user_id: userId, kind, redirect_to: redirectTo }),
      ],
    );
  } catch (error) {
    // The job takes its recipient from the installation's allowance as it is added.
    if (isPostgresError(error) && error.code === MAIL_LIMIT_SQLSTATE) {
      throw emailRateLimitExceeded();
    }
    // 42883: no such function; 3F000: no such schema.
    if (isPostgresError(error) && (error.code === '42883' || error.code === '3F000')) {
      console.warn('auth: this database has no job queue; account e-mails cannot be sent');
      return false;
    }
    throw error;
  }
  ctx.jobs.wake();
  return true;
}

/**
 * Takes one recipient from the installation's allowance of e-mail as an account e-mail would,
 * for a request that sends nothing (a password recovery for an address without an account), so
 * that the answer past the allowance is the same whether or not the address has one. Without
 * SMTP nothing is e-mailed and nothing counts; a database without the limits has nothing to take.
 */
export async function takeAccountMailAllowance(ctx: AppContext, q: Queryable): Promise<void> {
  if (!ctx.config.mail.smtp) return;
  try {
    await q.query('select private.take_mail_allowance(null, 1)');
  } catch (error) {
    if (isPostgresError(error) && error.code === MAIL_LIMIT_SQLSTATE) {
      throw emailRateLimitExceeded();
    }
    if (isPostgresError(error) && (error.code === '42883' || error.code === '3F000')) return;
    throw error;
  }
}
