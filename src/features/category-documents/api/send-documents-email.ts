import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** What the e-mail dialog sends. */
export interface DocumentsEmail {
  /** Well-formed recipient addresses; at least one. */
  to: string[];
  subject: string;
  message: string;
  /** Signed links that work for a limited time, instead of attachments. */
  asLinks: boolean;
  attachments: Pick<DocumentRecord, 'id' | 'name' | 'file_path' | 'size'>[];
}

/**
 * What became of a message: `queued`, the server is sending it (with retries); `outbox`, no
 * e-mail delivery is set up, so it was kept in the Outbox for an admin and not sent.
 */
export type SentStatus = 'queued' | 'outbox';

/** The signature of the sender, so tests can pass their own. */
export type SendDocumentsEmail = (email: DocumentsEmail) => Promise<SentStatus>;

/**
 * Records the e-mail on the server (rpc `send_documents_email`), which delivers it in the
 * background through the installation's SMTP server, or keeps it in the Outbox when there is
 * none. Nothing here claims a delivery that has not happened.
 */
export const sendDocumentsEmail: SendDocumentsEmail = async (email) => {
  const { data } = await succeeded(
    supabase().rpc('send_documents_email', {
      recipients: email.to,
      subject: email.subject,
      // The function trims the message and keeps none when it is empty.
      message: email.message.trim(),
      document_ids: email.attachments.map((document) => document.id),
      as_links: email.asLinks,
    }),
    'Failed to send email',
  );
  return data?.status === 'outbox' ? 'outbox' : 'queued';
};

/** The specification's words for a send that failed (§8). */
export const SEND_FAILED_MESSAGE = 'Failed to send email. Please try again.';

/** Sending an e-mail with `send` (the server's sender unless another is given). */
export function useSendDocumentsEmail(send: SendDocumentsEmail = sendDocumentsEmail) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    meta: {
      errorMessage: (error) =>
        `${SEND_FAILED_MESSAGE}${error.message ? ` (${error.message})` : ''}`,
    },
    // The Outbox lists every message.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['outbox_messages'] }),
  });
}

/** The notice after sending: what happened, never more. */
export function sentNotice(status: SentStatus): string {
  return status === 'outbox'
    ? 'Email kept in the Outbox: e-mail is not set up on this installation, so it was not sent.'
    : 'Email sent successfully!';
}
