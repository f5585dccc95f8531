import type { Queryable } from '../db/database.ts';

import type { MailLink, StoredMessage } from '../../supabase/functions/_shared/mail/message.ts';

export type {
  MailAttachment,
  MailKind,
  MailLink,
  MailStatus,
  StoredMessage,
} from '../../supabase/functions/_shared/mail/message.ts';

export async function loadMessage(db: Queryable, id: string): Promise<StoredMessage | null> {
  const { rows } = await db.query<StoredMessage>(
    `select id, organization_id, kind, created_by, recipients, subject, content, text_body,
            html_body, links, attachments, status, attempts
     from public.outbox_messages where id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * Keeps the parts written for a message, so that every attempt sends the same text
 * (`private.save_mail_parts`, which the `mail-worker` edge function's steps use too).
 */
export async function saveParts(
  db: Queryable,
  id: string,
  parts: { text: string; html: string; links: MailLink[] },
): Promise<void> {
  await db.query(`select private.save_mail_parts($1, $2, $3, $4::jsonb)`, [
    id,
    parts.text,
    parts.html,
    JSON.stringify(parts.links),
  ]);
}

/**
 * Records the outcome of one attempt, or the Outbox when there is no SMTP server
 * (`private.record_mail_outcome`, shared with the `mail-worker` edge function: a sent
 * invitation also loses its token there).
 */
export async function recordOutcome(
  db: Queryable,
  id: string,
  outcome:
    | { status: 'sent'; at: Date }
    | { status: 'queued' | 'failed'; error: string }
    | { status: 'outbox' },
): Promise<void> {
  await db.query(`select private.record_mail_outcome($1, $2, $3, $4::timestamptz)`, [
    id,
    outcome.status,
    'error' in outcome ? outcome.error : null,
    'at' in outcome ? outcome.at.toISOString() : null,
  ]);
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
