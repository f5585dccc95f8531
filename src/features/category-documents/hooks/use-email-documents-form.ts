import { useState, type FormEvent } from 'react';
import { useFormProblems } from '../../../components/ui/form-field.tsx';
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

/** A subject to start from, so the common case needs only the recipients. */
function defaultSubject(documents: readonly Pick<DocumentRecord, 'name'>[]): string {
  if (documents.length === 1) return `Document: ${documents[0]!.name}`;
  return `Documents (${documents.length})`;
}

/**
 * State and rules of the e-mail dialog (product-spec §5): To and Subject required (the send
 * button stays disabled while either is blank), every comma-separated address well-formed,
 * each problem under its field; then the one sender function, whose failure is the notice
 * "Failed to send email. Please try again." (spec §8).
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
  const { formRef, problems, report, clear } = useFormProblems<'to' | 'subject'>();
  const sending = useSendDocumentsEmail(send);

  const canSend = !sending.isPending && to.trim() !== '' && subject.trim() !== '';
  /** Something was typed that closing the dialog would lose. */
  const typed = to.trim() !== '' || message.trim() !== '' || subject !== initialSubject;

  function submit(event?: FormEvent) {
    event?.preventDefault();
    if (sending.isPending) return;
    const recipients = parseRecipients(to);
    const invalid = report({
      to:
        recipients.invalid.length > 0
          ? `${recipients.invalid.length === 1 ? 'This is not a valid email address' : 'These are not valid email addresses'}: ${recipients.invalid.join(', ')}`
          : recipients.valid.length === 0
            ? NO_RECIPIENT_MESSAGE
            : undefined,
      subject: subject.trim() ? undefined : SUBJECT_REQUIRED_MESSAGE,
    });
    if (invalid) return;
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
    formRef,
    to,
    setTo: (next: string) => {
      setTo(next);
      clear('to');
    },
    subject,
    setSubject: (next: string) => {
      setSubject(next);
      clear('subject');
    },
    message,
    setMessage,
    asLinks,
    setAsLinks,
    problems,
    sending: sending.isPending,
    sent: sending.isSuccess,
    canSend,
    typed,
    submit,
  };
}
