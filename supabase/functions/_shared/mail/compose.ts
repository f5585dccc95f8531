import type { StoredMessage, MailLink } from './message.ts';
import { composeDocuments } from './compose-documents.ts';
import { composeInvitation } from './compose-invitation.ts';
import { composeReminders } from './compose-reminders.ts';
import { composeRequest } from './compose-request.ts';
import { composeTest } from './compose-test.ts';

/** The parts of a message as delivered: plain text, HTML, and the links it carries. */
export interface ComposedMessage {
  text: string;
  html: string;
  links: MailLink[];
}

export interface ComposeOptions {
  /** The app's public address (`[auth] site_url`), for links back into it. */
  appUrl: string;
  /** A signed download link to a document's file, made as the message's sender. */
  signLink(filePath: string, label: string, signer: string): MailLink;
}

/** A message's text and HTML parts, written from what its content records. */
export function composeMessage(message: StoredMessage, options: ComposeOptions): ComposedMessage {
  switch (message.kind) {
    case 'documents':
      return composeDocuments(message, options);
    case 'invitation':
      return composeInvitation(message, options);
    case 'reminders':
      return composeReminders(message, options);
    case 'document_request':
      return composeRequest(message, options);
    case 'test':
      return composeTest(message);
  }
}

/** A string field of a message's content ('' when absent). */
export function field(content: Record<string, unknown>, key: string): string {
  const value = content[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}
