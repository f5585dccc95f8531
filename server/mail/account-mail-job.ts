import type { AccountMailKind } from '../auth/account-mail.ts';
import { PASSWORD_STAMP_SQL } from '../auth/account-mail.ts';
import type { OneTimeTokenType } from '../auth/one-time-tokens.ts';
import { issueOneTimeToken } from '../auth/one-time-tokens.ts';
import { findUserById } from '../auth/users.ts';
import { isUuid } from '../auth/validation.ts';
import type { AppContext } from '../context.ts';
import type { JobKind } from '../jobs/job-runner.ts';
import { composeAccountMail } from './compose-account.ts';
import type { MailTransport } from './transport.ts';

export { ACCOUNT_MAIL_KIND } from '../auth/account-mail.ts';

const TOKEN_TYPES: Record<AccountMailKind, OneTimeTokenType> = {
  recovery: 'recovery_token',
  email_change: 'email_change_token_new',
  email_change_current: 'email_change_token_current',
  signup: 'confirmation_token',
  reauthentication: 'reauthentication_token',
};

/**
 * The link of each kind: the app's page that takes it (`?token_hash=…&type=…`) and the `type`
 * `/verify` takes (both links of a change are one type). A reauthentication is a code alone.
 */
const LINKS: Record<AccountMailKind, { page: string; type: string } | null> = {
  recovery: { page: '/reset-password', type: 'recovery' },
  email_change: { page: '/confirm-email', type: 'email_change' },
  email_change_current: { page: '/confirm-email', type: 'email_change' },
  signup: { page: '/confirm-email', type: 'signup' },
  reauthentication: null,
};

/** When each kind was last sent, as GoTrue records it on the user. */
const SENT_AT_COLUMNS: Record<AccountMailKind, string> = {
  recovery: 'recovery_sent_at',
  email_change: 'email_change_sent_at',
  email_change_current: 'email_change_sent_at',
  signup: 'confirmation_sent_at',
  reauthentication: 'reauthentication_sent_at',
};

const isKind = (value: unknown): value is AccountMailKind =>
  typeof value === 'string' && Object.hasOwn(TOKEN_TYPES, value);

/**
 * Writes and sends one account e-mail (`{ user_id, kind, redirect_to }`): issues a new token of
 * that kind (voiding the previous one), records when it was sent, and delivers the message
 * through SMTP. A failed attempt is retried by the job runner with a new token. Without SMTP
 * nothing can be sent: the job says so in the log (never the token) and ends.
 */
export function accountMailJob(ctx: AppContext, transport: MailTransport | null): JobKind {
  const expirySeconds = ctx.config.auth.emailOtpExpirySeconds;
  return {
    timeoutMs: 2 * 60_000,
    async handle(job, { db }) {
      const { user_id: userId, kind, redirect_to: redirectTo, password_stamp: stamp } = job.payload;
      if (!isUuid(userId) || !isKind(kind)) return;
      const user = await findUserById(db, userId);
      if (!user || user.is_banned) return;
      if (typeof stamp === 'string') {
        // The password changed since this e-mail was asked for: the change voided the links
        // asked for before it, and this one may not be made after it either.
        const { rows } = await db.query<{ stamp: string | null }>(
          `select ${PASSWORD_STAMP_SQL} as stamp`,
          [userId],
        );
        if (rows[0]?.stamp !== stamp) return;
      }
      const recipient = kind === 'email_change' ? user.new_email : user.email;
      if (!recipient) return;
      // The change was made or given up meanwhile: there is nothing to confirm any more.
      if (kind === 'email_change_current' && !user.new_email) return;
      if (!transport) {
        console.warn(
          `auth: no SMTP server is configured; the ${kind} e-mail for user ${userId} was not sent`,
        );
        return;
      }

      const token = await db.transaction(async (tx) => {
        const issued = await issueOneTimeToken(
          tx,
          ctx.keys.jwtSecret,
          userId,
          TOKEN_TYPES[kind],
          recipient,
        );
        await tx.query(
          `update auth.users set ${SENT_AT_COLUMNS[kind]} = now() where id = $1::uuid`,
          [userId],
        );
        return issued;
      });

      const link = LINKS[kind];
      let url: string | null = null;
      if (link && typeof redirectTo === 'string' && redirectTo !== '') {
        // GoTrue's own link: the auth service verifies it and redirects with the session.
        const verify = new URLSearchParams({
          token: token.tokenHash,
          type: link.type,
          redirect_to: redirectTo,
        });
        url = `${ctx.publicUrl()}/auth/v1/verify?${verify}`;
      } else if (link) {
        const query = new URLSearchParams({ token_hash: token.tokenHash, type: link.type });
        url = `${ctx.siteUrl()}${link.page}?${query}`;
      }
      const message = composeAccountMail({
        kind,
        url,
        code: token.code,
        validMinutes: Math.round(expirySeconds / 60),
        ...(user.new_email ? { newEmail: user.new_email } : {}),
      });
      const domain = ctx.config.mail.sender.address.split('@')[1] ?? 'steward.invalid';
      await transport.send({
        messageId: `<auth-${job.id}-${job.attempt}@${domain}>`,
        to: [recipient],
        subject: message.subject,
        text: message.text,
        html: message.html,
        attachments: [],
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    },
  };
}
