import type { MailSettings } from '../config.ts';
import type { MailTransport } from '../../supabase/functions/_shared/mail/smtp.ts';
import { smtpTransport } from '../../supabase/functions/_shared/mail/smtp.ts';

export type { MailTransport, OutgoingMail } from '../../supabase/functions/_shared/mail/smtp.ts';
export { PermanentMailError } from '../../supabase/functions/_shared/mail/smtp.ts';

/**
 * Sends through the configured SMTP server with nodemailer; null when none is configured
 * (messages then stay in the Outbox).
 */
export function createMailTransport(settings: MailSettings): MailTransport | null {
  return settings.smtp ? smtpTransport(settings.smtp, settings.sender) : null;
}
