import { useMutation } from '@tanstack/react-query';
import type { DocumentRecord } from '../../documents/api/document.ts';

/** What the e-mail dialog sends. */
export interface DocumentsEmail {
  /** Well-formed recipient addresses; at least one. */
  to: string[];
  subject: string;
  message: string;
  attachments: Pick<DocumentRecord, 'id' | 'name' | 'file_path' | 'size'>[];
}

/** The specification's simulated sending time (§7, §9). */
export const SIMULATED_SEND_DELAY_MS = 2000;

/** The signature of an e-mail sender, so a real one (e.g. an edge function) can replace this. */
export type SendDocumentsEmail = (email: DocumentsEmail) => Promise<void>;

/**
 * Sends documents by e-mail. The product has no mail service yet, so, as the specification
 * says, sending is simulated: after 2 seconds it reports success and nothing leaves the app.
 * This is the one place to replace with a real sender; the dialog shows its errors as
 * "Failed to send email. Please try again."
 */
export const sendDocumentsEmail: SendDocumentsEmail = async (email) => {
  if (email.to.length === 0) throw new Error('No recipients');
  if (!email.subject.trim()) throw new Error('No subject');
  await new Promise((resolve) => setTimeout(resolve, SIMULATED_SEND_DELAY_MS));
};

/** Sending an e-mail with `send` (the simulated sender unless another is given). */
export function useSendDocumentsEmail(send: SendDocumentsEmail = sendDocumentsEmail) {
  return useMutation({ mutationFn: send });
}
