import type { Queryable } from '../db/database.ts';

export type MailKind = 'documents' | 'invitation' | 'reminders';
export type MailStatus = 'queued' | 'sent' | 'failed' | 'outbox';

/** A document a message carries, as `send_documents_email` recorded it. */
export interface MailAttachment {
  document_id: string;
  name: string;
  file_path: string;
  size: number;
}

/** A signed link to a document, as written into a message sent "as links". */
export interface MailLink {
  label: string;
  url: string;
  expires_at: string;
}

/** A row of `public.outbox_messages` (supabase/migrations/*_mail.sql). */
export interface StoredMessage {
  id: string;
  organization_id: string;
  kind: MailKind;
  created_by: string | null;
  recipients: string[];
  subject: string;
  content: Record<string, unknown>;
  text_body: string | null;
  html_body: string | null;
  links: MailLink[];
  attachments: MailAttachment[];
  status: MailStatus;
  attempts: number;
}

export async function loadMessage(db: Queryable, id: string): Promise<StoredMessage | null> {
  const { rows } = await db.query<StoredMessage>(
    `select id, organization_id, kind, created_by, recipients, subject, content, text_body,
            html_body, links, attachments, status, attempts
     from public.outbox_messages where id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Keeps the parts written for a message, so that every attempt sends the same text. */
export async function saveParts(
  db: Queryable,
  id: string,
  parts: { text: string; html: string; links: MailLink[] },
): Promise<void> {
  await db.query(
    `update public.outbox_messages set text_body = $2, html_body = $3, links = $4::jsonb
     where id = $1`,
    [id, parts.text, parts.html, JSON.stringify(parts.links)],
  );
}

/** Records the outcome of one attempt (or the Outbox, when there is no SMTP server). */
export async function recordOutcome(
  db: Queryable,
  id: string,
  outcome:
    | { status: 'sent'; at: Date }
    | { status: 'queued' | 'failed'; error: string }
    | { status: 'outbox' },
): Promise<void> {
  if (outcome.status === 'sent') {
    await db.query(
      `update public.outbox_messages
       set status = 'sent', sent_at = $2, attempts = attempts + 1, last_error = null
       where id = $1`,
      [id, outcome.at.toISOString()],
    );
  } else if (outcome.status === 'outbox') {
    await db.query(`update public.outbox_messages set status = 'outbox' where id = $1`, [id]);
  } else {
    await db.query(
      `update public.outbox_messages
       set status = $2, attempts = attempts + 1, last_error = $3
       where id = $1`,
      [id, outcome.status, outcome.error.slice(0, 2000)],
    );
  }
}

/**
 * Once an invitation is delivered, its link is the invited person's alone: the token leaves the
 * stored message (tokens are otherwise kept only as hashes), leaving the rest readable.
 */
export async function forgetSecret(db: Queryable, id: string, secret: string): Promise<void> {
  await db.query(
    `update public.outbox_messages
     set text_body = replace(text_body, $2, '…'), html_body = replace(html_body, $2, '…'),
         content = content - 'token'
     where id = $1`,
    [id, secret],
  );
}

/** The bytes of a stored object: the storage version that holds them, and its media type. */
export async function storedObject(
  db: Queryable,
  name: string,
): Promise<{ version: string; mimetype: string | null } | null> {
  const { rows } = await db.query<{ version: string | null; mimetype: string | null }>(
    `select version, metadata ->> 'mimetype' as mimetype from storage.objects
     where bucket_id = 'documents' and name = $1`,
    [name],
  );
  const row = rows[0];
  return row?.version ? { version: row.version, mimetype: row.mimetype } : null;
}
