import nodemailer from 'nodemailer';
import type { MailSettings } from '../config.ts';

/** One message as the SMTP server receives it. */
export interface OutgoingMail {
  /** Stable per message, so that a receiver can tell a repeated delivery from a new message. */
  messageId: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; path: string; contentType?: string }[];
  /** Extra headers, e.g. `Auto-Submitted` for reminders (RFC 3834). */
  headers?: Record<string, string>;
}

/** A delivery the SMTP server refused for good (a 5xx answer): trying again cannot help. */
export class PermanentMailError extends Error {}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}

// Each delivery attempt is bounded: a server that stops answering fails the attempt, which is
// retried later, instead of holding the job until its lease runs out.
const TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/**
 * Sends through the configured SMTP server with nodemailer; null when none is configured
 * (messages then stay in the Outbox). A new connection per message: reminders and documents
 * are a few messages a day, and nothing stays open between them.
 */
export function createMailTransport(settings: MailSettings): MailTransport | null {
  const { smtp, sender } = settings;
  if (!smtp) return null;
  const transporter =
    'url' in smtp
      ? nodemailer.createTransport({ url: smtp.url, ...TIMEOUTS })
      : nodemailer.createTransport({
          host: smtp.host,
          port: smtp.port,
          // Port 465 speaks TLS from the start; others upgrade with STARTTLS when offered.
          secure: smtp.port === 465,
          ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
          ...TIMEOUTS,
        });
  return {
    async send(mail) {
      try {
        await transporter.sendMail({
          from: { name: sender.name, address: sender.address },
          // Addresses as objects: nodemailer never parses them, so one cannot become two.
          to: mail.to.map((address) => ({ name: '', address })),
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          messageId: mail.messageId,
          attachments: mail.attachments,
          headers: mail.headers,
        });
      } catch (error) {
        const code = (error as { responseCode?: unknown }).responseCode;
        if (typeof code === 'number' && code >= 500 && code < 600) {
          throw new PermanentMailError((error as Error).message);
        }
        throw error;
      }
    },
  };
}
