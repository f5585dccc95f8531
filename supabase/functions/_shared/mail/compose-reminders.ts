import type { ComposedMessage, ComposeOptions } from './compose.ts';
import { field } from './compose.ts';
import { formatMailDate, plural } from './format.ts';
import { escapeHtml, htmlDocument, htmlLink } from './html.ts';
import type { StoredMessage } from './message.ts';

/** A document in a digest, as `private.run_reminders` lists it. */
interface DigestItem {
  id: string;
  name: string;
  expiry_date: string;
  days_left: number;
}

/** Where the app shows a document, the list filtered by expiry state, and one's reminders. */
export const appLinks = {
  document: (appUrl: string, id: string) =>
    `${appUrl}/documents?document=${encodeURIComponent(id)}`,
  expiring: (appUrl: string, state: 'overdue' | 'soon') => `${appUrl}/documents?expiry=${state}`,
  reminders: (appUrl: string) => `${appUrl}/reminders`,
};

function when(item: DigestItem): string {
  const date = formatMailDate(item.expiry_date);
  if (item.days_left < 0) {
    return `expired on ${date} (${plural(-item.days_left, 'day')} ago)`;
  }
  if (item.days_left === 0) return `expires today, ${date}`;
  return `expires on ${date} (in ${plural(item.days_left, 'day')})`;
}

function items(content: Record<string, unknown>): DigestItem[] {
  const value = content.items;
  return Array.isArray(value) ? (value as DigestItem[]) : [];
}

/**
 * The daily digest of one recipient: the documents whose reminder fired today, overdue first,
 * each with a link to it. At most 100 are listed (the run records no more); the rest are counted
 * and the filtered list is linked, so an organisation with thousands of expiring documents
 * still gets one readable message.
 */
export function composeReminders(message: StoredMessage, options: ComposeOptions): ComposedMessage {
  const { content } = message;
  const { appUrl } = options;
  const organization = field(content, 'organization_name');
  const total = Number(content.total ?? 0);
  const overdueCount = Number(content.overdue ?? 0);
  const listed = items(content);
  const overdue = listed.filter((item) => item.days_left < 0);
  const upcoming = listed.filter((item) => item.days_left >= 0);

  const greeting = `Hello ${field(content, 'recipient_name')},`;
  const intro = `${plural(total, 'document')} of ${organization} need${total === 1 ? 's' : ''} your attention.`;
  const sections: {
    title: string;
    list: DigestItem[];
    count: number;
    state: 'overdue' | 'soon';
  }[] = [
    { title: 'Overdue', list: overdue, count: overdueCount, state: 'overdue' },
    { title: 'Expiring soon', list: upcoming, count: total - overdueCount, state: 'soon' },
  ];
  const more = (count: number, shown: number) =>
    count > shown ? `…and ${count - shown} more` : '';
  const footer =
    `You receive this as a member of ${organization}. ` +
    `Turn your reminders off, or subscribe to the calendar: ${appLinks.reminders(appUrl)}`;

  const text: string[] = [greeting, '', intro];
  const html: string[] = [`<p>${escapeHtml(greeting)}</p>`, `<p>${escapeHtml(intro)}</p>`];
  for (const section of sections) {
    if (section.count === 0) continue;
    text.push('', `${section.title} (${section.count})`);
    html.push(`<h3 style="margin:16px 0 4px">${escapeHtml(section.title)} (${section.count})</h3>`);
    html.push('<ul style="padding-left:20px">');
    for (const item of section.list) {
      const link = appLinks.document(appUrl, item.id);
      text.push(`- ${item.name}: ${when(item)}`, `  ${link}`);
      html.push(`<li>${htmlLink(link, item.name)}: ${escapeHtml(when(item))}</li>`);
    }
    html.push('</ul>');
    const rest = more(section.count, section.list.length);
    if (rest) {
      const link = appLinks.expiring(appUrl, section.state);
      text.push(`${rest}: ${link}`);
      html.push(`<p>${htmlLink(link, rest)}</p>`);
    }
  }
  const stop = 'Mark a document "renewal in progress" in Steward to pause its reminders.';
  text.push('', stop, '', '--', footer);
  html.push(`<p style="font-size:13px;color:#475569">${escapeHtml(stop)}</p>`);
  return {
    text: text.join('\n'),
    html: htmlDocument(message.subject, html.join('\n'), footer),
    links: [],
  };
}
