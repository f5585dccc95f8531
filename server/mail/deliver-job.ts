import type { Queryable } from '../db/database.ts';
import type { AppContext } from '../context.ts';
import type { JobKind } from '../jobs/job-runner.ts';
import type { FileStore } from '../storage/file-store.ts';
import { signedObjectUrl, urlSigningKey } from '../storage/signed-url.ts';
import {
  composeMessage,
  type ComposeOptions,
} from '../../supabase/functions/_shared/mail/compose.ts';
import {
  headersOf,
  mailRetryDelaySeconds,
  messageIdOf,
} from '../../supabase/functions/_shared/mail/message.ts';
import type { StoredMessage } from './messages.ts';
import { loadMessage, recordOutcome, saveParts, storedObject } from './messages.ts';
import type { MailSenders } from './organization-sender.ts';
import type { OutgoingMail } from './transport.ts';
import { PermanentMailError } from './transport.ts';

/** A stored file to attach, by the version that holds its bytes. */
interface Attached {
  filename: string;
  version: string;
  contentType?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The job kind that delivers the messages of `public.outbox_messages`. */
export const MAIL_DELIVERY_KIND = 'mail.deliver';

/**
 * Delivers one recorded message (`{ message_id }`): writes its text and HTML parts on the first
 * attempt, then sends it through its organisation's SMTP server, else the installation's, or
 * leaves it in the Outbox when there is neither.
 * A failed attempt is recorded on the message (attempts, last error) and retried by the job
 * runner; after the last attempt, or when the server refuses it for good (5xx), the message is
 * marked failed. Safe to run again: a message already sent or failed is left alone.
 */
export function mailDeliveryJob(ctx: AppContext, senders: MailSenders, store: FileStore): JobKind {
  const signingKey = urlSigningKey(ctx.keys.jwtSecret);
  const linkSeconds = ctx.config.storage.maxSignedUrlExpirySeconds;

  // Links are signed as the message's sender, with the assurance level of the session that
  // sent it (recorded with the message), so that they work where the database asks the sender
  // for a second factor and the sender had proved it.
  const composeOptions = (now: Date, message: StoredMessage): ComposeOptions => ({
    appUrl: ctx.siteUrl(),
    signLink(filePath, label, signer) {
      const issued = Math.floor(now.getTime() / 1000);
      const path = signedObjectUrl(
        signingKey,
        'documents',
        filePath,
        linkSeconds,
        {
          role: 'authenticated',
          sub: signer,
          aal: message.content.sender_aal === 'aal2' ? 'aal2' : 'aal1',
        },
        issued,
      );
      return {
        label,
        url: `${ctx.siteUrl()}/storage/v1${path}`,
        expires_at: new Date((issued + linkSeconds) * 1000).toISOString(),
      };
    },
  });

  async function outgoing(
    db: Queryable,
    message: StoredMessage,
    text: string,
    html: string,
  ): Promise<{ mail: Omit<OutgoingMail, 'attachments'>; attached: Attached[] }> {
    const attached: Attached[] = [];
    if (message.kind === 'documents' && message.content.as_links !== true) {
      for (const attachment of message.attachments) {
        const object = await storedObject(db, attachment.file_path);
        if (!object) {
          throw new PermanentMailError(`${attachment.name} is no longer stored`);
        }
        attached.push({
          filename: attachment.name,
          version: object.version,
          ...(object.mimetype ? { contentType: object.mimetype } : {}),
        });
      }
    }
    const headers = headersOf(message);
    const mail = {
      messageId: messageIdOf(message, ctx.config.mail.sender.address),
      to: message.recipients,
      subject: message.subject,
      text,
      html,
      ...(headers ? { headers } : {}),
    };
    return { mail, attached };
  }

  return {
    timeoutMs: 3 * 60_000,
    retryDelaySeconds: mailRetryDelaySeconds,
    async handle(job, { db, clock }) {
      const id = job.payload.message_id;
      if (typeof id !== 'string' || !UUID.test(id)) return;
      const message = await loadMessage(db, id);
      if (!message || message.status === 'sent' || message.status === 'failed') return;

      let { text_body: text, html_body: html } = message;
      if (text === null || html === null) {
        try {
          const parts = composeMessage(message, composeOptions(clock.now(), message));
          await saveParts(db, id, parts);
          ({ text, html } = parts);
        } catch (error) {
          await recordOutcome(db, id, { status: 'failed', error: (error as Error).message });
          return;
        }
      }
      if (message.status === 'outbox') {
        await recordOutcome(db, id, { status: 'outbox' });
        return;
      }

      try {
        const transport = await senders.transportFor(db, message.organization_id);
        if (!transport) {
          await recordOutcome(db, id, { status: 'outbox' });
          return;
        }
        const { mail, attached } = await outgoing(db, message, text, html);
        // Attachments are read by path: local copies where the files are not on this disk.
        await store.withLocalFiles(
          attached.map((file) => file.version),
          (paths) =>
            transport.send({
              ...mail,
              attachments: attached.map(({ version: _version, ...file }, index) => ({
                ...file,
                path: paths[index]!,
              })),
            }),
        );
      } catch (error) {
        const permanent = error instanceof PermanentMailError;
        const last = permanent || job.attempt >= job.maxAttempts;
        const reason = (error as Error).message;
        await recordOutcome(db, id, { status: last ? 'failed' : 'queued', error: reason });
        if (permanent) return;
        throw error;
      }
      // A sent invitation also loses its token here (private.record_mail_outcome).
      await recordOutcome(db, id, { status: 'sent', at: clock.now() });
    },
  };
}
