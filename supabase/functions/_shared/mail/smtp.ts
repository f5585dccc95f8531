/**
 * Sending one message through an SMTP server with nodemailer: the embedded server's delivery
 * job (server/mail/transport.ts) and the `mail-worker` edge function both send through this.
 * nodemailer runs on Node and on Deno (as `npm:nodemailer`, through Deno's Node compatibility).
 */
import nodemailer from 'nodemailer';

/** One message as the SMTP server receives it. */
export interface OutgoingMail {
  /** Stable per message, so that a receiver can tell a repeated delivery from a new message. */
  messageId: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /**
   * A file by its path (the embedded server's own files) or its bytes in base64 (read from
   * Storage by the edge function: a string, the same on Node and Deno).
   */
  attachments: { filename: string; path?: string; base64?: string; contentType?: string }[];
  /** Extra headers, e.g. `Auto-Submitted` for reminders (RFC 3834). */
  headers?: Record<string, string>;
}

/** A delivery the SMTP server refused for good (a 5xx answer): trying again cannot help. */
export class PermanentMailError extends Error {}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}

/** Where to send: an `smtp://` or `smtps://` URL, or the server's fields. */
export type SmtpServer =
  | { url: string }
  | {
      host: string;
      port: number;
      user: string | undefined;
      pass: string | undefined;
      /** The server's name for TLS, when `host` is an address it was resolved to. */
      servername?: string;
    };

// Each delivery attempt is bounded: a server that stops answering fails the attempt, which is
// retried later, instead of holding the job until its lease runs out.
const TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

/**
 * A transport that sends each message as `sender` through `server`. A new connection per
 * message: reminders and documents are a few messages a day, and nothing stays open between
 * them. A 5xx answer becomes a PermanentMailError; anything else (a server that is down, a 4xx)
 * is thrown as it is, to be retried.
 */
export function smtpTransport(
  server: SmtpServer,
  sender: { name: string; address: string },
): MailTransport {
  const transporter =
    'url' in server
      ? nodemailer.createTransport({ url: server.url, ...TIMEOUTS })
      : nodemailer.createTransport({
          host: server.host,
          port: server.port,
          // Port 465 speaks TLS from the start; others upgrade with STARTTLS when offered.
          secure: server.port === 465,
          ...(server.servername ? { servername: server.servername } : {}),
          ...(server.user ? { auth: { user: server.user, pass: server.pass ?? '' } } : {}),
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
          attachments: mail.attachments.map((attachment) => ({
            filename: attachment.filename,
            ...(attachment.path !== undefined ? { path: attachment.path } : {}),
            ...(attachment.base64 !== undefined
              ? { content: attachment.base64, encoding: 'base64' }
              : {}),
            ...(attachment.contentType ? { contentType: attachment.contentType } : {}),
          })),
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
