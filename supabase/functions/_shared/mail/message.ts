/**
 * A message of `public.outbox_messages` (supabase/schemas/05_mail.sql), as the embedded
 * server's delivery job and the `mail-worker` edge function both read it.
 */

export type MailKind = 'documents' | 'invitation' | 'reminders' | 'document_request' | 'test';
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

/** A row of `public.outbox_messages`. */
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

/** The `Message-ID` of a message: stable, so a receiver can tell a repeated delivery. */
export function messageIdOf(message: { id: string }, senderAddress: string): string {
  const domain = senderAddress.split('@')[1] ?? 'steward.invalid';
  return `<${message.id}@${domain}>`;
}

/** Extra headers of a message: reminders are machine-made, not for auto-replies (RFC 3834). */
export function headersOf(message: { kind: MailKind }): Record<string, string> | undefined {
  return message.kind === 'reminders' ? { 'Auto-Submitted': 'auto-generated' } : undefined;
}

/**
 * The wait before delivery attempt `attempt + 1`: 30 s, 1, 2, 4… minutes, at most an hour;
 * with the eight attempts `queue_mail` gives a message, about two hours in all.
 */
export const mailRetryDelaySeconds = (attempt: number): number =>
  Math.min(30 * 2 ** (attempt - 1), 3600);
