import type { ComposedMessage, ComposeOptions } from './compose.ts';
import { field } from './compose.ts';
import { formatMailDate } from './format.ts';
import { escapeHtml, htmlDocument, htmlLink } from './html.ts';
import type { StoredMessage } from './message.ts';

/** The link of a document request: the app's upload page (`/r/{token}`). */
export function requestUrl(appUrl: string, token: string): string {
  return `${appUrl}/r/${encodeURIComponent(token)}`;
}

/**
 * A request for a document (supabase/schemas/22_document_requests.sql): who asks for what, the
 * instructions, and the one link to send it through, which needs no account. A renewal asks for
 * the new version of a document the person sent before.
 */
export function composeRequest(message: StoredMessage, options: ComposeOptions): ComposedMessage {
  const { content } = message;
  const organization = field(content, 'organization_name');
  const requester = field(content, 'requester_name');
  const requesterEmail = field(content, 'requester_email');
  const recipient = field(content, 'recipient_name');
  const title = field(content, 'title');
  const instructions = field(content, 'instructions');
  const dueDate = field(content, 'due_date');
  const renewal = content.renewal === true;
  const expiryDate = field(content, 'expiry_date');
  const url = requestUrl(options.appUrl, field(content, 'token'));
  const linkEnds = formatMailDate(field(content, 'link_expires_at'));
  const who =
    requesterEmail && requesterEmail !== requester ? `${requester} (${requesterEmail})` : requester;

  const greeting = recipient ? `Hello ${recipient},` : 'Hello,';
  const asked = renewal
    ? `${who} of ${organization} asks you for the renewal of your ${title}${
        expiryDate ? `, which expires on ${formatMailDate(expiryDate)}` : ''
      }.`
    : `${who} of ${organization} asks you for a document: ${title}.`;
  const due = dueDate ? `Please send it by ${formatMailDate(dueDate)}.` : '';
  const expiry =
    content.expiry_required === true ? 'You will be asked for the date it expires.' : '';
  const how = `Send it through this link; you do not need an account. The link works until ${linkEnds}, for one document.`;
  const footer = `Sent with Steward on behalf of ${organization}.`;
  const paragraphs = [asked, instructions, [due, expiry].filter(Boolean).join(' ')].filter(
    (paragraph) => paragraph !== '',
  );
  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    `Send the document: ${url}`,
    '',
    how,
    '',
    '--',
    footer,
  ].join('\n');
  const html = htmlDocument(
    message.subject,
    [
      `<p>${escapeHtml(greeting)}</p>`,
      ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\r?\n/g, '<br>')}</p>`),
      `<p>${htmlLink(url, 'Send the document')}</p>`,
      `<p style="font-size:13px;color:#475569">${escapeHtml(url)}</p>`,
      `<p>${escapeHtml(how)}</p>`,
    ].join('\n'),
    footer,
  );
  return { text, html, links: [] };
}
