import { useState, type FormEvent } from 'react';
import type { DocumentRecord } from '../../documents/api/document.ts';
import { sendDocumentsEmail, type SendDocumentsEmail } from '../api/send-documents-email.ts';
import { parseRecipients } from '../lib/email-addresses.ts';

export const NO_RECIPIENT_MESSAGE = 'Please enter at least one recipient email address.';
export const SUBJECT_REQUIRED_MESSAGE = 'Please enter a subject.';
export const SEND_FAILED_MESSAGE = 'Failed to send email. Please try again.';

/** A subject to start from, so the common case needs only the recipients. */
function defaultSubject(documents: readonly Pick<DocumentRecord, 'name'>[]): string {
  if (documents.length === 1) return `Document: ${documents[0]!.name}`;
  return `Documents (${documents.length})`;
}

/**
 * State and rules of the e-mail dialog (product-spec §5): To and Subject required (the send
 * button stays disabled while either is blank), every comma-separated address well-formed,
 * then the one sender function; its failure shows "Failed to send email. Please try again."
 */
export function useEmailDocumentsForm(
  documents: readonly DocumentRecord[],
  { send = sendDocumentsEmail, onSent }: { send?: SendDocumentsEmail; onSent: () => void },
) {
  const [to, setTo] = useState('');
  const [subject, setSubject] = useState(() => defaultSubject(documents));
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const canSend = !sending && to.trim() !== '' && subject.trim() !== '';

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (sending) return;
    const recipients = parseRecipients(to);
    if (recipients.invalid.length > 0) {
      setError(
        `${recipients.invalid.length === 1 ? 'This is not a valid email address' : 'These are not valid email addresses'}: ${recipients.invalid.join(', ')}`,
      );
      return;
    }
    if (recipients.valid.length === 0) {
      setError(NO_RECIPIENT_MESSAGE);
      return;
    }
    if (!subject.trim()) {
      setError(SUBJECT_REQUIRED_MESSAGE);
      return;
    }
    setError(null);
    setSending(true);
    try {
      await send({
        to: recipients.valid,
        subject: subject.trim(),
        message,
        attachments: documents.map(({ id, name, file_path, size }) => ({
          id,
          name,
          file_path,
          size,
        })),
      });
      setSending(false);
      onSent();
    } catch {
      setSending(false);
      setError(SEND_FAILED_MESSAGE);
    }
  }

  return { to, setTo, subject, setSubject, message, setMessage, error, sending, canSend, submit };
}
