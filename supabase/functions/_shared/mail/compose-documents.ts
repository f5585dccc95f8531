import type { ComposedMessage, ComposeOptions } from './compose.ts';
import { field } from './compose.ts';
import { formatMailDate, formatMailSize, plural } from './format.ts';
import { escapeHtml, htmlDocument, htmlLink } from './html.ts';
import type { MailLink, StoredMessage } from './message.ts';

/** Documents a member sent: attached, or as signed links that work for a limited time. */
export function composeDocuments(message: StoredMessage, options: ComposeOptions): ComposedMessage {
  const { content, attachments } = message;
  const sender = field(content, 'sender_name');
  const senderEmail = field(content, 'sender_email');
  const organization = field(content, 'organization_name');
  const asLinks = content.as_links === true;
  const links: MailLink[] = asLinks
    ? attachments.map((a) => {
        if (!message.created_by) throw new Error('the sender is no longer a member');
        return options.signLink(a.file_path, a.name, message.created_by);
      })
    : [];
  const who = senderEmail && senderEmail !== sender ? `${sender} (${senderEmail})` : sender;
  const intro = `${who} of ${organization} sent you ${plural(attachments.length, 'document')}.`;
  const note = field(content, 'message');
  const footer = `Sent with Steward on behalf of ${organization}.`;

  const textLines = attachments.map((a, i) =>
    asLinks
      ? `- ${a.name} (${formatMailSize(a.size)}): ${links[i]!.url}`
      : `- ${a.name} (${formatMailSize(a.size)})`,
  );
  const closing = asLinks
    ? `The links work until ${formatMailDate(links[0]?.expires_at ?? '')}.`
    : 'The documents are attached to this message.';
  const text = [
    intro,
    ...(note ? ['', note] : []),
    '',
    ...textLines,
    '',
    closing,
    '',
    '--',
    footer,
  ].join('\n');

  const items = attachments
    .map((a, i) => {
      const label = `${a.name} (${formatMailSize(a.size)})`;
      return `<li>${asLinks ? htmlLink(links[i]!.url, label) : escapeHtml(label)}</li>`;
    })
    .join('');
  const html = htmlDocument(
    message.subject,
    `<p>${escapeHtml(intro)}</p>` +
      (note ? `<p style="white-space:pre-wrap">${escapeHtml(note)}</p>` : '') +
      `<ul>${items}</ul><p>${escapeHtml(closing)}</p>`,
    footer,
  );
  return { text, html, links };
}
