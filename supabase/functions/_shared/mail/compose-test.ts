import type { ComposedMessage } from './compose.ts';
import { field } from './compose.ts';
import { escapeHtml, htmlDocument } from './html.ts';
import type { StoredMessage } from './message.ts';

/** A test e-mail an admin sent to themselves from Settings › E-mail. */
export function composeTest(message: StoredMessage): ComposedMessage {
  const organization = field(message.content, 'organization_name');
  const server = field(message.content, 'server');
  const through =
    server === 'installation'
      ? "It was sent through this Steward installation's mail server."
      : `It was sent through your organization's mail server, ${server}.`;
  const intro = `This is a test e-mail from Steward for ${organization}.`;
  const outcome = 'E-mail from Steward reaches you: invitations, documents and reminders will too.';
  const footer = `Sent with Steward on behalf of ${organization}.`;
  const text = [intro, '', through, '', outcome, '', '--', footer].join('\n');
  const html = htmlDocument(
    message.subject,
    [intro, through, outcome].map((line) => `<p>${escapeHtml(line)}</p>`).join('\n'),
    footer,
  );
  return { text, html, links: [] };
}
