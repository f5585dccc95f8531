import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization } from '../../../testing/backend.ts';
import { findNotice } from '../../../testing/notices.ts';
import { renderApp, renderWithProviders } from '../../../testing/render.tsx';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { seedDocuments } from '../../../testing/seed-documents.ts';
import { EmailDocumentsDialog } from './email-documents-dialog.tsx';
import { watchBusyButton } from '../../../testing/busy-label.ts';

const slow = { timeout: 8000 };
const MB = 1024 * 1024;

async function documentList(name: string) {
  return screen.findByRole('list', { name }, slow);
}

function rowNames(list: HTMLElement) {
  return Array.from(list.querySelectorAll(':scope > li')).map(
    (item) => item.querySelector('p')?.textContent,
  );
}

describe('category document list', { timeout: 60_000 }, () => {
  it('lists the documents of the category or tagged with its key, and only the organisation’s', async () => {
    const organization = await createOrganization();
    await seedDocuments(organization, [
      { name: 'Payroll guide.pdf', category: 'HR', created_at: '2026-01-05T10:00:00Z' },
      {
        name: 'Tagged lower.pdf',
        category: 'Other',
        tags: ['hr'],
        created_at: '2026-01-04T10:00:00Z',
      },
      {
        name: 'Tagged upper.pdf',
        category: 'Reports',
        tags: ['x', 'HR'],
        created_at: '2026-01-03T10:00:00Z',
      },
      {
        name: 'Budget.xlsx',
        category: 'Accounting',
        tags: ['finance'],
        created_at: '2026-01-02T10:00:00Z',
      },
      {
        name: 'Part of a tag.pdf',
        category: 'Other',
        tags: ['hr-archive'],
        created_at: '2026-01-01T10:00:00Z',
      },
    ]);
    const other = await createOrganization();
    await seedDocuments(other, [{ name: 'Their HR file.pdf', category: 'HR' }]);
    const member = await addMember(organization, 'user');

    renderApp({ client: member.client, route: '/operations/hr' });
    const list = await documentList('HR Documents');
    expect(rowNames(list)).toEqual(['Payroll guide.pdf', 'Tagged lower.pdf', 'Tagged upper.pdf']);
  });

  it('searches by name, description or tag and selects one or all', async () => {
    const organization = await createOrganization();
    await seedDocuments(organization, [
      { name: 'Set list.pdf', tags: ['worship', 'Easter'], created_at: '2026-01-03T10:00:00Z' },
      {
        name: 'Rehearsal plan.docx',
        tags: ['worship'],
        description: 'Thursday band practice',
        created_at: '2026-01-02T10:00:00Z',
      },
      { name: 'CCLI licence.pdf', tags: ['Worship'], created_at: '2026-01-01T10:00:00Z' },
    ]);
    const user = userEvent.setup({ delay: null });
    renderApp({ client: organization.masterAdmin.client, route: '/department/worship' });
    const list = await documentList('Worship Documents');
    expect(rowNames(list)).toHaveLength(3);

    // Searched on the server once typing pauses.
    const search = screen.getByRole('searchbox', { name: 'Search documents' });
    await user.type(search, 'easter');
    await waitFor(() => expect(rowNames(list)).toEqual(['Set list.pdf']));
    await user.clear(search);
    await user.type(search, 'BAND');
    await waitFor(() => expect(rowNames(list)).toEqual(['Rehearsal plan.docx']));
    await user.clear(search);
    await user.type(search, 'licen');
    await waitFor(() => expect(rowNames(list)).toEqual(['CCLI licence.pdf']));
    await user.clear(search);
    await user.type(search, 'nothing like this');
    expect(await screen.findByText('No documents match your search.')).toBeVisible();
    await user.clear(search);
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Worship Documents' })).getAllByRole('checkbox'),
      ).toHaveLength(3),
    );

    const emailSelected = screen.getByRole('button', { name: /^Email Selected/ });
    expect(emailSelected).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select Set list.pdf' }));
    expect(emailSelected).toHaveTextContent('Email Selected (1)');
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(emailSelected).toHaveTextContent('Email Selected (3)');
    const rows = screen.getByRole('list', { name: 'Worship Documents' });
    for (const box of within(rows).getAllByRole('checkbox')) expect(box).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(emailSelected).toBeDisabled();
  });

  it("shows the empty state with Upload Documents, the form filled in with the page's tags", async () => {
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/department/cge' });
    expect(
      await screen.findByText('No documents found for this page yet.', {}, slow),
    ).toBeVisible();
    const region = screen.getByRole('region', { name: 'CGE Documents' });
    // The specification's CGE is fed by its key and name as tags (issue 24).
    expect(within(region).getByRole('link', { name: 'Upload Documents' })).toHaveAttribute(
      'href',
      '/upload?tags=cge%2C+CGE',
    );
  });

  it('opens a document in the shared preview', async () => {
    const organization = await createOrganization();
    await seedDocuments(organization, [{ name: 'Logo guide.docx', category: 'Branding' }]);
    const user = userEvent.setup({ delay: null });
    renderApp({ client: organization.masterAdmin.client, route: '/operations/branding' });
    await documentList('Branding Documents');
    await user.click(screen.getByRole('button', { name: 'View Logo guide.docx' }));
    const preview = await screen.findByRole('dialog', { name: /Logo guide\.docx/ });
    expect(within(preview).getByRole('button', { name: 'Download' })).toBeVisible();
  });

  it('e-mails the selected documents, warning above 25MB, and says that the message went to the Outbox', async () => {
    const organization = await createOrganization();
    await seedDocuments(organization, [
      {
        name: 'Video A.mp4',
        category: 'Streaming: Video & Podcast',
        size: 20 * MB,
        created_at: '2026-01-02T10:00:00Z',
      },
      {
        name: 'Video B.mp4',
        category: 'Streaming: Video & Podcast',
        size: 6 * MB,
        created_at: '2026-01-01T10:00:00Z',
      },
    ]);
    const user = userEvent.setup({ delay: null });
    renderApp({ client: organization.masterAdmin.client, route: '/operations/streaming' });
    await documentList('Streaming: Video & Podcast Documents');

    // One document alone stays under the limit.
    await user.click(screen.getByRole('button', { name: 'Email Video B.mp4' }));
    let dialog = await screen.findByRole('dialog', { name: 'Email Documents' });
    expect(within(dialog).getByRole('region', { name: 'Attachments' })).toHaveTextContent(
      'Video B.mp4',
    );
    expect(within(dialog).queryByText(/more than 25MB/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Email Selected (2)' }));
    dialog = await screen.findByRole('dialog', { name: 'Email Documents' });
    const attachments = within(dialog).getByRole('region', { name: 'Attachments' });
    expect(
      within(attachments)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Video A.mp420 MB', 'Video B.mp46 MB']);
    expect(
      within(dialog).getByText(/these attachments total 26 MB, which is more than 25MB/),
    ).toBeVisible();

    const send = within(dialog).getByRole('button', { name: 'Send Email' });
    const to = within(dialog).getByLabelText('To');
    const subject = within(dialog).getByLabelText('Subject');
    expect(subject).toHaveValue('Documents (2)');
    expect(send).toBeDisabled();
    await user.type(to, 'pastor@grace.example, media@grace.example');
    expect(send).toBeEnabled();
    await user.clear(subject);
    expect(send).toBeDisabled();
    await user.type(subject, '   ');
    expect(send).toBeDisabled();
    await user.type(subject, 'Easter videos');
    expect(send).toBeEnabled();

    const busy = await watchBusyButton('Sending...', () => user.click(send));
    expect(busy).toEqual({ seen: true, alwaysDisabled: true });
    // The test backend has no SMTP server: the message is kept in the Outbox, and says so.
    expect(
      await screen.findByText(
        'Email kept in the Outbox: e-mail is not set up on this installation, so it was not sent.',
        {},
        slow,
      ),
    ).toBeVisible();
    // An information, not a green success (issue 24).
    expect(
      screen
        .getByText(
          'Email kept in the Outbox: e-mail is not set up on this installation, so it was not sent.',
        )
        .closest('[data-tone]'),
    ).toHaveAttribute('data-tone', 'info');
    expect(screen.queryByRole('dialog', { name: 'Email Documents' })).not.toBeInTheDocument();
    // The e-mailed selection is cleared.
    expect(screen.getByRole('button', { name: 'Email Selected' })).toBeDisabled();
  });

  it('validates the recipients before sending', async () => {
    const organization = await createOrganization();
    const [document] = await seedDocuments(organization, [{ name: 'Minutes.pdf' }]);
    const user = userEvent.setup({ delay: null });
    let sent = 0;
    renderWithProviders(
      <EmailDocumentsDialog
        documents={[document as DocumentRecord]}
        onClose={() => undefined}
        onSent={() => undefined}
        send={async () => {
          sent += 1;
          return 'queued';
        }}
      />,
      { client: organization.masterAdmin.client },
    );
    const dialog = screen.getByRole('dialog', { name: 'Email Documents' });
    expect(within(dialog).getByLabelText('Subject')).toHaveValue('Document: Minutes.pdf');
    const to = within(dialog).getByLabelText('To');
    const send = within(dialog).getByRole('button', { name: 'Send Email' });

    await user.type(to, ' , ,');
    await user.click(send);
    // Said under the To field, which takes the focus.
    expect(to).toHaveAccessibleDescription(/Please enter at least one recipient email address\.$/);
    expect(to).toHaveFocus();
    await user.clear(to);
    await user.type(to, 'elder@grace.example, not-an-address');
    await user.click(send);
    expect(to).toHaveAccessibleDescription(/This is not a valid email address: not-an-address$/);
    expect(sent).toBe(0);
    await user.clear(to);
    await user.type(to, 'elder@grace.example');
    await user.click(send);
    await waitFor(() => expect(sent).toBe(1));
  });

  it('says so when sending fails', async () => {
    const organization = await createOrganization();
    const [document] = await seedDocuments(organization, [{ name: 'Minutes.pdf' }]);
    const user = userEvent.setup({ delay: null });
    let sentCalls = 0;
    renderWithProviders(
      <EmailDocumentsDialog
        documents={[document as DocumentRecord]}
        onClose={() => undefined}
        onSent={() => (sentCalls += 1)}
        send={() => Promise.reject(new Error('mail server unreachable'))}
      />,
      { client: organization.masterAdmin.client },
    );
    await user.type(screen.getByLabelText('To'), 'elder@grace.example');
    await user.click(screen.getByRole('button', { name: 'Send Email' }));
    expect(
      await findNotice('Failed to send email. Please try again. (mail server unreachable)'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Email' })).toBeEnabled();
    expect(sentCalls).toBe(0);
  });

  it('asks before the page is left with an e-mail typed but not sent', async () => {
    const organization = await createOrganization();
    await seedDocuments(organization, [{ name: 'Brand book.pdf', category: 'Branding' }]);
    const user = userEvent.setup({ delay: null });
    const { router } = renderApp({
      client: organization.masterAdmin.client,
      route: '/operations/branding',
    });
    await documentList('Branding Documents');
    await user.click(screen.getByRole('button', { name: 'Email Brand book.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'Email Documents' });
    await user.type(within(dialog).getByLabelText('To'), 'designer@grace.example');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getAllByRole('link', { name: 'Documents' })[0]!);
    const question = await screen.findByRole('dialog', { name: 'Leave this page?' });
    expect(question).toHaveTextContent('Your email has not been sent.');
    await user.click(within(question).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/operations/branding');
    expect(within(dialog).getByLabelText('To')).toHaveValue('designer@grace.example');
  });
});
