import type { ComposedMessage, ComposeOptions } from './compose.ts';
import { field } from './compose.ts';
import { formatMailDate } from './format.ts';
import { escapeHtml, htmlDocument, htmlLink } from './html.ts';
import type { StoredMessage } from './message.ts';

/** The link of an invitation: the app's accept-invitation page (`/invite/{token}`). */
export function invitationUrl(appUrl: string, token: string): string {
  return `${appUrl}/invite/${encodeURIComponent(token)}`;
}

/** An invitation to join an organisation, with the one link that accepts it. */
export function composeInvitation(
  message: StoredMessage,
  options: ComposeOptions,
): ComposedMessage {
  const { content } = message;
  const organization = field(content, 'organization_name');
  const inviter = field(content, 'inviter_name');
  const inviterEmail = field(content, 'inviter_email');
  const invitee = field(content, 'invitee_name');
  const role = field(content, 'role') === 'admin' ? 'an admin' : 'a user';
  const url = invitationUrl(options.appUrl, field(content, 'token'));
  const expires = formatMailDate(field(content, 'expires_at'));
  const who = inviterEmail && inviterEmail !== inviter ? `${inviter} (${inviterEmail})` : inviter;

  const greeting = invitee ? `Hello ${invitee},` : 'Hello,';
  const invited = `${who} invited you to join ${organization} on Steward as ${role}.`;
  const expiry = `The invitation expires on ${expires}. If you did not expect it, you can ignore this message.`;
  const footer = `Sent with Steward on behalf of ${organization}.`;
  const text = [
    greeting,
    '',
    invited,
    '',
    `Accept the invitation and create your account: ${url}`,
    '',
    expiry,
    '',
    '--',
    footer,
  ].join('\n');
  const html = htmlDocument(
    message.subject,
    [
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(invited)}</p>`,
      `<p>${htmlLink(url, 'Accept the invitation and create your account')}</p>`,
      `<p style="font-size:13px;color:#475569">${escapeHtml(url)}</p>`,
      `<p>${escapeHtml(expiry)}</p>`,
    ].join('\n'),
    footer,
  );
  return { text, html, links: [] };
}
