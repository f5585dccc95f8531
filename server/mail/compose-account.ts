import type { AccountMailKind } from '../auth/account-mail.ts';
import type { ComposedMessage } from '../../supabase/functions/_shared/mail/compose.ts';
import { escapeHtml, htmlDocument, htmlLink } from '../../supabase/functions/_shared/mail/html.ts';

export interface AccountMail {
  kind: AccountMailKind;
  /** The link that does what the message offers; null for a reauthentication (a code alone). */
  url: string | null;
  /** The six-digit code an app may ask for instead of the link (or asks for, without one). */
  code: string;
  /** Minutes the link and code stay valid. */
  validMinutes: number;
  /** For an e-mail change (both of its messages), the new address. */
  newEmail?: string;
}

const SUBJECTS: Record<AccountMailKind, string> = {
  recovery: 'Reset your Steward password',
  email_change: 'Confirm your new e-mail address for Steward',
  email_change_current: 'Confirm the change of your Steward e-mail address',
  signup: 'Confirm your Steward account',
  reauthentication: 'Your Steward code to change your password',
};

const LEADS: Record<AccountMailKind, (mail: AccountMail) => string> = {
  recovery: () => 'Someone asked to reset the password of your Steward account.',
  email_change: (mail) =>
    `Someone asked to change the e-mail address of a Steward account to ${mail.newEmail ?? 'this address'}.`,
  email_change_current: (mail) =>
    `Someone asked to change the e-mail address of your Steward account to ${mail.newEmail ?? 'another address'}. The change needs your confirmation from this address as well.`,
  signup: () => 'Thank you for creating a Steward account.',
  reauthentication: () => 'Someone asked to change the password of your Steward account.',
};

const ACTIONS: Record<AccountMailKind, string> = {
  recovery: 'Choose a new password',
  email_change: 'Confirm the new address',
  email_change_current: 'Confirm the change',
  signup: 'Confirm your e-mail address',
  reauthentication: 'Enter this code to confirm it is you',
};

const IGNORE: Record<AccountMailKind, string> = {
  recovery:
    'If you did not ask for this, you can ignore this message: your password stays as it is.',
  email_change: 'If you did not ask for this, you can ignore this message: nothing changes.',
  email_change_current:
    'If you did not ask for this, do not confirm it: your address stays as it is. Someone may know your password: change it.',
  signup: 'If you did not create an account, you can ignore this message.',
  reauthentication:
    'If you did not ask for this, give this code to nobody: someone may know your password. Change it.',
};

/** The subject, text and HTML of an account e-mail. The link (or the code) works once. */
export function composeAccountMail(mail: AccountMail): ComposedMessage & { subject: string } {
  const subject = SUBJECTS[mail.kind];
  const lead = LEADS[mail.kind](mail);
  const action = ACTIONS[mail.kind];
  const validity =
    mail.url === null
      ? `The code works once, for ${mail.validMinutes} minutes.`
      : `The link works once, for ${mail.validMinutes} minutes. Or enter this code: ${mail.code}`;
  const call = mail.url === null ? `${action}: ${mail.code}` : `${action}: ${mail.url}`;
  const ignore = IGNORE[mail.kind];
  const footer = 'Sent by Steward.';
  const text = ['Hello,', '', lead, '', call, '', validity, '', ignore, '', '--', footer].join(
    '\n',
  );
  const html = htmlDocument(
    subject,
    [
      '<p>Hello,</p>',
      `<p>${escapeHtml(lead)}</p>`,
      mail.url === null
        ? `<p>${escapeHtml(action)}: <strong>${escapeHtml(mail.code)}</strong></p>`
        : `<p>${htmlLink(mail.url, action)}</p>`,
      `<p>${escapeHtml(validity)}</p>`,
      `<p>${escapeHtml(ignore)}</p>`,
    ].join('\n'),
    footer,
  );
  return { subject, text, html, links: [] };
}
