import { useState, type FormEvent } from 'react';
import type { DocumentRecord } from '../../../lib/documents.ts';
import {
  useSendDocumentsEmail,
  type SendDocumentsEmail,
  type SentStatus,
} from '../api/send-documents-email.ts';
import { attachmentsTooLarge } from '../lib/attachments.ts';
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
  { send, onSent }: { send?: SendDocumentsEmail; onSent: (status: SentStatus) => void },
) {
  const [initialSubject] = useState(() => defaultSubject(documents));
  const [to, setTo] = useState('');
  const [subject, setSubject] = useState(initialSubject);
  const [message, setMessage] = useState('');
  // Large attachments are better sent as links (many mail services refuse over 25 MB).
  const [asLinks, setAsLinks] = useState(() => attachmentsTooLarge(documents));
  const [invalid, setInvalid] = useState<string | null>(null);
  const sending = useSendDocumentsEmail(send);

  const canSend = !sending.isPending && to.trim() !== '' && subject.trim() !== '';
  /** Something was typed that closing the dialog would lose. */
  const typed = to.trim() !== '' || message.trim() !== '' || subject !== initialSubject;

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (sending.isPending) return;
    const recipients = parseRecipients(to);
    if (recipients.invalid.length > 0) {
      setInvalid(
        `${recipients.invalid.length === 1 ? 'This is not a valid email address' : 'These are not valid email addresses'}: ${recipients.invalid.join(', ')}`,
      );
      return;
    }
    if (recipients.valid.length === 0) {
      setInvalid(NO_RECIPIENT_MESSAGE);
      return;
    }
    if (!subject.trim()) {
      setInvalid(SUBJECT_REQUIRED_MESSAGE);
      return;
    }
    setInvalid(null);
    sending.mutate(
      {
        to: recipients.valid,
        subject: subject.trim(),
        message,
        asLinks,
        attachments: documents.map(({ id, name, file_path, size }) => ({
          id,
          name,
          file_path,
          size,
        })),
      },
      { onSuccess: (status) => onSent(status) },
    );
  }

  return {
    to,
    setTo,
    subject,
    setSubject,
    message,
    setMessage,
    asLinks,
    setAsLinks,
    error:
      invalid ??
      (sending.isError
        ? `${SEND_FAILED_MESSAGE}${sending.error.message ? ` (${sending.error.message})` : ''}`
        : null),
    sending: sending.isPending,
    sent: sending.isSuccess,
    canSend,
    typed,
    submit,
  };
}
