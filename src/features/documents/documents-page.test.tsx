import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { SetupServerApi } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization, signUpUser } from '../../testing/backend.ts';
import { findNotice } from '../../testing/notices.ts';
import { renderApp } from '../../testing/render.tsx';
import {
  readStoredText,
  seedDocuments,
  seedStoredDocument,
  serviceClient,
} from '../../testing/seed-documents.ts';

// The first render waits for the session, the profile and the lazily loaded page.
const PAGE = { timeout: 10_000 };

// Only for answers a real server cannot be made to give (a failing backend); everything else
// passes through to the real one. Requests made with fetch only: a file is stored with
// XMLHttpRequest (for its progress), which goes straight to the real server.
const network = new SetupServerApi([], [new FetchInterceptor()]);
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

async function openDocuments() {
  const organization = await createOrganization();
  return { organization, user: userEvent.setup() };
}

function rowOf(name: string) {
  return screen.getByText(name, { selector: '[data-document-name]' }).closest('tr')!;
}

/** A row's Status cell, which says a renewal in progress on a wide screen. */
function statusCell(name: string) {
  return within(rowOf(name)).getAllByRole('cell')[6]!;
}

/** Chooses `action` in the row's actions menu ("Actions for <name>"). */
async function chooseRowAction(user: UserEvent, name: string, action: string) {
  await user.click(within(rowOf(name)).getByRole('button', { name: `Actions for ${name}` }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
}

describe('documents page', () => {
  it('shows the empty text when the organisation has no documents', async () => {
    const { organization } = await openDocuments();
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    expect(
      await screen.findByText(
        'No documents found. Upload your first document to get started!',
        {},
        PAGE,
      ),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Upload Documents' })[0]).toHaveAttribute(
      'href',
      '/upload',
    );
  });

  it('lists documents newest first with tags, dates, N/A, sizes and status', async () => {
    const { organization, user } = await openDocuments();
    await seedDocuments(organization, [
      {
        name: 'older.pdf',
        category: 'Legal',
        size: 1536,
        tags: ['insurance', 'board', '2025', 'renewal', 'church'],
        expiry_date: '2031-02-03',
        created_at: '2025-01-05T12:00:00Z',
        upload_date: '2025-01-05T12:00:00Z',
      },
      {
        name: 'newer.txt',
        category: 'HR',
        size: 3 * 1024 * 1024,
        tags: ['one'],
        created_at: '2025-02-10T12:00:00Z',
        upload_date: '2025-02-10T12:00:00Z',
      },
    ]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });

    await screen.findByText('older.pdf', {}, PAGE);
    const headers = screen.getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual([
      'Select all documents on this page',
      'Name',
      'Category',
      'Upload Date',
      'Expiry Date',
      'Size',
      'Status',
      'Actions',
    ]);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual([
      expect.stringContaining('newer.txt'),
      expect.stringContaining('older.pdf'),
    ]);

    const older = within(rowOf('older.pdf'));
    expect(older.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'insurance',
      'board',
      '2025',
      '+2and 2 more',
    ]);
    expect(older.getByText('Legal')).toBeInTheDocument();
    expect(older.getByText('Jan 05, 2025')).toBeInTheDocument();
    expect(older.getByText('Feb 03, 2031')).toBeInTheDocument();
    expect(older.getByText('1.5 KB')).toBeInTheDocument();
    expect(older.getByText('Active')).toBeInTheDocument();

    const newer = within(rowOf('newer.txt'));
    expect(newer.getByText('N/A')).toBeInTheDocument();
    expect(newer.getByText('3 MB')).toBeInTheDocument();
    // One menu named after the document, its actions as menu items; Renew only with an expiry date.
    await user.click(newer.getByRole('button', { name: 'Actions for newer.txt' }));
    expect(
      within(await screen.findByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([
      'View',
      'Edit Properties',
      'Edit Content',
      'Upload new version',
      'Download',
      'Email',
      'Share',
      'Delete',
    ]);
    await user.keyboard('{Escape}');
    await user.click(older.getByRole('button', { name: 'Actions for older.pdf' }));
    expect(
      within(await screen.findByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([
      'View',
      'Edit Properties',
      'Renew',
      'Upload new version',
      'Download',
      'Email',
      'Share',
      'Delete',
    ]);
  });

  it("opens a row's Share on the preview's Share tab (a Viewer has none: viewer.test.tsx)", async () => {
    const user = userEvent.setup();
    const { organization } = await openDocuments();
    await seedDocuments(organization, [{ name: 'Insurance certificate.pdf' }]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('Insurance certificate.pdf', {}, PAGE);
    await chooseRowAction(user, 'Insurance certificate.pdf', 'Share');
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('tab', { name: 'Share' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('shows each expiry date with its state in colour, icon and words, and keeps the Status column', async () => {
    const { organization } = await openDocuments();
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await seedDocuments(organization, [
      { name: 'expired certificate.pdf', category: 'Legal', expiry_date: day(-60) },
      { name: 'insurance.pdf', category: 'Legal', expiry_date: day(3) },
      { name: 'lease.pdf', category: 'Legal', expiry_date: day(0) },
      { name: 'licence.pdf', category: 'Legal', expiry_date: day(200) },
      { name: 'minutes.pdf', category: 'Reports' },
    ]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('expired certificate.pdf', {}, PAGE);
    const expiryCell = (name: string) => within(rowOf(name)).getAllByRole('cell')[4]!;
    expect(expiryCell('expired certificate.pdf')).toHaveTextContent('Overdue');
    expect(
      expiryCell('expired certificate.pdf').querySelector('[data-expiry-state]'),
    ).toHaveAttribute('data-tone', 'expiry-overdue');
    expect(expiryCell('insurance.pdf')).toHaveTextContent('Expires in 3 days');
    expect(expiryCell('lease.pdf')).toHaveTextContent('Expires today');
    expect(expiryCell('licence.pdf')).not.toHaveTextContent(/Overdue|Expires/);
    // The Status column keeps the specified word, but beside an overdue or expiring date it is
    // not drawn as the green "all is well" mark.
    const status = (name: string) => within(rowOf(name)).getByText('Active');
    expect(status('expired certificate.pdf')).toHaveAttribute('data-status-mark', 'plain');
    expect(status('insurance.pdf')).toHaveAttribute('data-status-mark', 'plain');
    expect(status('lease.pdf')).toHaveAttribute('data-status-mark', 'plain');
    expect(status('licence.pdf')).toHaveAttribute('data-status-mark', 'shown');
    expect(status('licence.pdf')).toHaveAttribute('data-tone', 'status-active');
    expect(status('minutes.pdf')).toHaveAttribute('data-status-mark', 'shown');
  });

  it('takes the expiry filter, the order and the document to open from the address', async () => {
    const { organization } = await openDocuments();
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const [overdue] = await seedDocuments(organization, [
      { name: 'expired certificate.pdf', category: 'Legal', expiry_date: day(-60) },
      { name: 'insurance.pdf', category: 'Legal', expiry_date: day(3) },
      { name: 'licence.pdf', category: 'Legal', expiry_date: day(200) },
      { name: 'minutes.pdf', category: 'Reports' },
    ]);
    const { unmount } = renderApp({
      client: organization.masterAdmin.client,
      route: '/documents?expiry=overdue',
    });
    await screen.findByText('expired certificate.pdf', {}, PAGE);
    expect(screen.getByLabelText('Filter by expiry')).toHaveValue('overdue');
    const names = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[1]!.textContent);
    expect(names()).toEqual([expect.stringContaining('expired certificate.pdf')]);
    unmount();

    const sorted = renderApp({
      client: organization.masterAdmin.client,
      route: '/documents?sort=expiry_date',
    });
    await screen.findByText('licence.pdf', {}, PAGE);
    expect(names()).toEqual([
      expect.stringContaining('expired certificate.pdf'),
      expect.stringContaining('insurance.pdf'),
      expect.stringContaining('licence.pdf'),
      expect.stringContaining('minutes.pdf'),
    ]);
    sorted.unmount();

    renderApp({
      client: organization.masterAdmin.client,
      route: `/documents?document=${overdue!.id}`,
    });
    expect(await screen.findByRole('dialog', {}, PAGE)).toHaveTextContent(
      'expired certificate.pdf',
    );
  });

  it('searches on the server as you type, filters by category, and keeps both in the address', async () => {
    const { organization, user } = await openDocuments();
    await seedDocuments(organization, [
      { name: 'Insurance Policy.pdf', category: 'Legal' },
      { name: 'Youth Camp Budget.xlsx', category: 'Financial' },
      { name: 'insurance-claims.docx', category: 'Financial' },
    ]);
    const { router } = renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('Insurance Policy.pdf', {}, PAGE);

    await user.type(screen.getByLabelText('Search documents'), 'INSUR');
    await waitFor(() =>
      expect(screen.queryByText('Youth Camp Budget.xlsx')).not.toBeInTheDocument(),
    );
    expect(screen.getByText('Insurance Policy.pdf')).toBeInTheDocument();
    expect(screen.getByText('insurance-claims.docx')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1–2 of 2 documents');

    await user.selectOptions(screen.getByLabelText('Filter by category'), 'Financial');
    await waitFor(() => expect(screen.queryByText('Insurance Policy.pdf')).not.toBeInTheDocument());
    expect(screen.getByText('insurance-claims.docx')).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get('q')).toBe('INSUR');
    expect(new URLSearchParams(router.state.location.search).get('category')).toBe('Financial');

    await user.clear(screen.getByLabelText('Search documents'));
    await user.type(screen.getByLabelText('Search documents'), 'nothing like it');
    expect(await screen.findByText('No documents match your search.')).toBeInTheDocument();

    const options = within(screen.getByLabelText('Filter by category')).getAllByRole('option');
    expect(options[0]).toHaveTextContent('All Categories');
    expect(options).toHaveLength(15);
    // The box says in plain words what it searches.
    expect(screen.getByLabelText('Search documents')).toHaveAccessibleDescription(
      'Search names, tags and the words inside files',
    );
  });

  it('filters by tag and by uploader, keeps both in the address, and opens with them', async () => {
    const { organization, user } = await openDocuments();
    const treasurer = await addMember(organization, 'user', 'Tess Treasurer');
    await seedDocuments(organization, [
      { name: 'Camp insurance.pdf', tags: ['Youth', 'insurance'], uploaded_by: treasurer.userId },
      { name: 'Camp menu.docx', tags: ['youth'], uploaded_by: organization.masterAdmin.userId },
      { name: 'Hall lease.pdf', tags: ['lease'], uploaded_by: treasurer.userId },
    ]);
    const first = renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('Hall lease.pdf', {}, PAGE);

    // A tag, in any case, once the typing pauses.
    await user.type(screen.getByLabelText('Filter by tag'), 'YOUTH');
    await waitFor(() => expect(screen.queryByText('Hall lease.pdf')).not.toBeInTheDocument());
    expect(screen.getByText('Camp insurance.pdf')).toBeInTheDocument();
    expect(screen.getByText('Camp menu.docx')).toBeInTheDocument();

    // The uploader, chosen by name among the organisation's members.
    const uploader = screen.getByLabelText('Filter by uploader');
    await within(uploader).findByRole('option', { name: 'Tess Treasurer' });
    await user.selectOptions(uploader, 'Tess Treasurer');
    await waitFor(() => expect(screen.queryByText('Camp menu.docx')).not.toBeInTheDocument());
    expect(screen.getByText('Camp insurance.pdf')).toBeInTheDocument();
    const params = new URLSearchParams(first.router.state.location.search);
    expect(params.get('tag')).toBe('YOUTH');
    expect(params.get('uploader')).toBe(treasurer.userId);

    // The same address opened anew shows the same list, with the filters filled in.
    first.unmount();
    renderApp({
      client: organization.masterAdmin.client,
      route: `/documents?tag=lease&uploader=${treasurer.userId}`,
    });
    await screen.findByText('Hall lease.pdf', {}, PAGE);
    expect(screen.queryByText('Camp insurance.pdf')).toBeNull();
    expect(screen.getByLabelText('Filter by tag')).toHaveValue('lease');
    await waitFor(() =>
      expect(screen.getByLabelText('Filter by uploader')).toHaveValue(treasurer.userId),
    );
    expect(screen.getByRole('option', { name: 'Tess Treasurer', selected: true })).toBeTruthy();
  });

  it('opens with the search, filters, order and page the address holds', async () => {
    const { organization } = await openDocuments();
    await seedDocuments(organization, [
      { name: 'Lease of the hall.pdf', category: 'Legal', expiry_date: '2020-01-01' },
      { name: 'Lease of the manse.pdf', category: 'Legal', expiry_date: '2020-06-01' },
      { name: 'Lease renewal notes.txt', category: 'Other', expiry_date: '2020-01-01' },
      { name: 'Lease of the car park.pdf', category: 'Legal', expiry_date: null },
    ]);
    renderApp({
      client: organization.masterAdmin.client,
      route: '/documents?q=lease&category=Legal&expiry=overdue&sort=name&dir=desc',
    });
    await screen.findByText('Lease of the manse.pdf', {}, PAGE);
    expect(screen.getByLabelText('Search documents')).toHaveValue('lease');
    expect(screen.getByLabelText('Filter by category')).toHaveValue('Legal');
    expect(screen.getByLabelText('Filter by expiry')).toHaveValue('overdue');
    const names = screen
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell')[1]!.textContent);
    expect(names).toEqual([
      expect.stringContaining('Lease of the manse.pdf'),
      expect.stringContaining('Lease of the hall.pdf'),
    ]);
    expect(screen.getByRole('columnheader', { name: 'Name' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  it('finds a document by words inside its file and shows where they are', async () => {
    const { organization, user } = await openDocuments();
    const stored = await seedStoredDocument(
      organization,
      { name: 'scan-0042.txt' },
      'Certificate of insurance for the youth camp at Lakeside',
    );
    // The text is read in the background; wait until it is.
    await waitFor(
      async () => {
        const { data } = await serviceClient()
          .from('document_texts')
          .select('state')
          .eq('document_id', stored.id)
          .single();
        expect(data?.state).toBe('ready');
      },
      { timeout: 20_000, interval: 250 },
    );
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('scan-0042.txt', {}, PAGE);
    await user.type(screen.getByLabelText('Search documents'), 'lakeside');
    const snippet = await screen.findByTestId('search-snippet', {}, PAGE);
    // Started a few words before the word found, so that it is on the snippet's two lines.
    expect(snippet).toHaveTextContent(/^… the youth camp at Lakeside$/);
    expect(within(snippet).getByText('Lakeside').tagName).toBe('MARK');
  });

  it('moves a deleted document to the trash after the confirmation, keeping its file', async () => {
    const { organization, user } = await openDocuments();
    const keep = await seedStoredDocument(organization, { name: 'keep.txt' }, 'keep');
    const doomed = await seedStoredDocument(organization, { name: 'old minutes.txt' }, 'bye');
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('old minutes.txt', {}, PAGE);

    await chooseRowAction(user, 'old minutes.txt', 'Delete');
    const confirm = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete "old minutes.txt"?');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('old minutes.txt')).toBeInTheDocument();

    await chooseRowAction(user, 'old minutes.txt', 'Delete');
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Please confirm' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(screen.queryByText('old minutes.txt')).not.toBeInTheDocument());
    expect(screen.getByText('keep.txt')).toBeInTheDocument();

    const service = serviceClient();
    const rows = await service
      .from('documents')
      .select('id, deleted_at')
      .eq('organization_id', organization.organizationId)
      .order('name');
    expect(rows.data).toEqual([
      { id: keep.id, deleted_at: null },
      { id: doomed.id, deleted_at: expect.any(String) },
    ]);
    expect(await readStoredText(organization, doomed.file_path)).toBe('bye');
    expect(await readStoredText(organization, keep.file_path)).toBe('keep');
  });

  it('says why a delete failed', async () => {
    const { organization, user } = await openDocuments();
    await seedDocuments(organization, [{ name: 'locked.pdf' }]);
    network.use(
      http.post('*/rest/v1/rpc/delete_documents', () =>
        HttpResponse.json(
          { code: '42501', message: 'permission denied for table documents' },
          { status: 403 },
        ),
      ),
    );
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('locked.pdf', {}, PAGE);
    await chooseRowAction(user, 'locked.pdf', 'Delete');
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Please confirm' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(
      await findNotice('Failed to delete document: permission denied for table documents'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('locked.pdf', { selector: '[data-document-name]' }),
    ).toBeInTheDocument();
  });

  it('edits the properties of a document', async () => {
    const { organization, user } = await openDocuments();
    const [document] = await seedDocuments(organization, [
      { name: 'policy.pdf', category: 'Legal', tags: ['a'], expiry_date: '2030-01-01' },
    ]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('policy.pdf', {}, PAGE);
    await chooseRowAction(user, 'policy.pdf', 'Edit Properties');

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText(/Category/)).toHaveValue('Legal');
    expect(within(dialog).getByLabelText('Tags')).toHaveValue('a');
    await user.selectOptions(within(dialog).getByLabelText(/Category/), '');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    // Said under the field, which takes the focus; the dialog stays as it was.
    expect(await within(dialog).findByText('Please select a category.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Category/)).toHaveAccessibleDescription(
      'Please select a category.',
    );
    expect(within(dialog).getByLabelText(/Category/)).toHaveFocus();

    await user.selectOptions(within(dialog).getByLabelText(/Category/), 'Governance');
    await user.clear(within(dialog).getByLabelText('Tags'));
    await user.type(within(dialog).getByLabelText('Tags'), 'bylaws, , 2025 ');
    await user.clear(within(dialog).getByLabelText('Expiry Date'));
    await user.type(within(dialog).getByLabelText('Description'), 'Adopted in May');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = within(rowOf('policy.pdf'));
    expect(row.getByText('Governance')).toBeInTheDocument();
    expect(row.getByText('bylaws')).toBeInTheDocument();
    expect(row.getByText('N/A')).toBeInTheDocument();
    const saved = await serviceClient()
      .from('documents')
      .select('category, tags, expiry_date, description')
      .eq('id', document!.id)
      .single();
    expect(saved.data).toEqual({
      category: 'Governance',
      tags: ['bylaws', '2025'],
      expiry_date: null,
      description: 'Adopted in May',
    });
  });

  it('names the responsible member and marks a renewal in progress in Edit Properties', async () => {
    const { organization, user } = await openDocuments();
    const [document] = await seedDocuments(organization, [
      { name: 'dbs.pdf', category: 'HR', expiry_date: '2030-01-01' },
    ]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('dbs.pdf', {}, PAGE);
    await chooseRowAction(user, 'dbs.pdf', 'Edit Properties');
    const dialog = await screen.findByRole('dialog');
    const responsible = within(dialog).getByLabelText('Responsible member');
    await waitFor(() => expect(responsible).toBeEnabled());
    await user.selectOptions(responsible, organization.masterAdmin.userId);
    await user.click(within(dialog).getByLabelText(/Renewal in progress/));
    await user.type(within(dialog).getByLabelText('Renewal note (optional)'), 'Form sent');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(statusCell('dbs.pdf')).toHaveTextContent('Renewal in progress');
    const saved = await serviceClient()
      .from('documents')
      .select('responsible_id, renewal_in_progress, renewal_note')
      .eq('id', document!.id)
      .single();
    expect(saved.data).toEqual({
      responsible_id: organization.masterAdmin.userId,
      renewal_in_progress: true,
      renewal_note: 'Form sent',
    });
  });

  it('renews a document with a new file and date, keeping the old file as a version', async () => {
    const { organization, user } = await openDocuments();
    const stored = await seedStoredDocument(
      organization,
      {
        name: 'insurance.txt',
        category: 'Legal',
        expiry_date: '2026-01-31',
        renewal_in_progress: true,
      },
      'Policy 2025',
      'text/plain',
    );
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('insurance.txt', {}, PAGE);
    expect(statusCell('insurance.txt')).toHaveTextContent('Renewal in progress');
    await chooseRowAction(user, 'insurance.txt', 'Renew');
    let dialog = await screen.findByRole('dialog', { name: /Renew/ });
    expect(within(dialog).getByLabelText(/New expiry date/)).toHaveValue('2027-01-31');
    expect(await within(dialog).findByText(/None yet/)).toBeInTheDocument();
    await user.upload(
      within(dialog).getByLabelText(/New file/),
      new File(['Policy 2026, renewed'], 'policy-2026.txt', { type: 'text/plain' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Renew' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), PAGE);
    const row = within(rowOf('insurance.txt'));
    expect(row.getByText('Jan 31, 2027')).toBeInTheDocument();
    expect(row.queryByText('Renewal in progress')).not.toBeInTheDocument();

    const renewed = await serviceClient()
      .from('documents')
      .select('file_path, size')
      .eq('id', stored.id)
      .single();
    expect(renewed.data!.file_path).not.toBe(stored.file_path);
    expect(await readStoredText(organization, renewed.data!.file_path)).toBe(
      'Policy 2026, renewed',
    );
    expect(await readStoredText(organization, stored.file_path)).toBe('Policy 2025');

    await chooseRowAction(user, 'insurance.txt', 'Renew');
    dialog = await screen.findByRole('dialog', { name: /Renew/ });
    const versions = within(dialog).getByRole('region', { name: 'Earlier versions' });
    expect(await within(versions).findByText('Version 1: insurance.txt')).toBeInTheDocument();
    expect(versions).toHaveTextContent('expired Jan 31, 2026');
    expect(
      within(versions).getByRole('button', { name: 'Download version 1 of insurance.txt' }),
    ).toBeInTheDocument();

    // Deleting the document moves it to the trash with its earlier versions' files.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await chooseRowAction(user, 'insurance.txt', 'Delete');
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Please confirm' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(screen.queryByText('insurance.txt')).not.toBeInTheDocument());
    expect(await readStoredText(organization, stored.file_path)).toBe('Policy 2025');
    expect(await readStoredText(organization, renewed.data!.file_path)).toBe(
      'Policy 2026, renewed',
    );
  });

  it('shows a document’s History: who changed what, from what to what', async () => {
    const { organization, user } = await openDocuments();
    const stored = await seedStoredDocument(
      organization,
      { name: 'rota.txt', category: 'HR' },
      'Sunday rota',
      'text/plain',
    );
    const edit = await organization.masterAdmin.client
      .from('documents')
      .update({ category: 'Operations' })
      .eq('id', stored.id);
    expect(edit.error).toBeNull();
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('rota.txt', {}, PAGE);
    await chooseRowAction(user, 'rota.txt', 'View');
    const dialog = await screen.findByRole('dialog', { name: /rota\.txt/ });
    await user.click(within(dialog).getByRole('tab', { name: 'History' }));
    const history = await within(dialog).findByRole('list', { name: 'History' }, PAGE);
    const entries = within(history)
      .getAllByRole('listitem')
      .filter((li) => li.dataset.kind);
    expect(entries.map((li) => li.dataset.kind)).toEqual(['document.updated', 'document.uploaded']);
    expect(entries[0]).toHaveTextContent('Edited the properties of "rota.txt"');
    expect(entries[0]).toHaveTextContent('category: HR → Operations');
    expect(entries[0]).toHaveTextContent(organization.masterAdmin.email);
    // Seeded by the service role: the server itself.
    expect(entries[1]).toHaveTextContent('Steward (automatic)');
  });

  it('lists the earlier versions of an edited file and restores the first', async () => {
    const { organization, user } = await openDocuments();
    const stored = await seedStoredDocument(
      organization,
      { name: 'notes.txt' },
      'first text',
      'text/plain',
    );
    const client = organization.masterAdmin.client;
    for (const [n, text] of ['second text', 'third text'].entries()) {
      const path = `documents/${organization.organizationId}/${Date.now()}-edit${n}.txt`;
      const upload = await client.storage.from('documents').upload(path, text);
      expect(upload.error).toBeNull();
      const replaced = await client.rpc('replace_document_file', {
        document_id: stored.id,
        file_path: path,
        change: 'content_edit',
      });
      expect(replaced.error).toBeNull();
    }
    renderApp({ client, route: '/documents' });
    await screen.findByText('notes.txt', {}, PAGE);
    await chooseRowAction(user, 'notes.txt', 'View');
    const dialog = await screen.findByRole('dialog', { name: /notes\.txt/ });
    await user.click(within(dialog).getByRole('tab', { name: 'Versions' }));
    const versions = within(dialog).getByRole('region', { name: 'Earlier versions' });
    expect(await within(versions).findByText('Version 2: notes.txt')).toBeInTheDocument();
    expect(within(versions).getByText('Version 1: notes.txt')).toBeInTheDocument();

    await user.click(
      within(versions).getByRole('button', { name: 'Restore version 1 of notes.txt' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(confirm).toHaveTextContent(
      'Restore version 1 of "notes.txt"? The current file will be kept as an earlier version.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Restore' }));
    expect(await within(versions).findByText('Version 3: notes.txt', {}, PAGE)).toBeInTheDocument();
    const current = await serviceClient()
      .from('documents')
      .select('file_path')
      .eq('id', stored.id)
      .single();
    expect(await readStoredText(organization, current.data!.file_path)).toBe('first text');
  });

  it('shows the load failure with the backend note', async () => {
    const { organization } = await openDocuments();
    network.use(
      http.post('*/rest/v1/rpc/search_documents', () =>
        HttpResponse.json(
          { code: 'PGRST002', message: 'Could not query the database for the schema cache' },
          { status: 503 },
        ),
      ),
    );
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    const alert = await screen.findByRole('alert', {}, PAGE);
    expect(alert).toHaveTextContent(
      'Error loading documents: Could not query the database for the schema cache',
    );
    expect(alert).toHaveTextContent('make sure the backend is configured');
  });

  it('shows one page at a time with the total, and moves between pages', async () => {
    const { organization, user } = await openDocuments();
    await seedDocuments(
      organization,
      Array.from({ length: 60 }, (_, index) => ({
        name: `Doc ${String(index).padStart(4, '0')}.pdf`,
      })),
    );
    const { router } = renderApp({
      client: organization.masterAdmin.client,
      route: '/documents?sort=name',
    });
    await screen.findByText('Doc 0000.pdf', {}, PAGE);
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1–50 of 60 documents');
    expect(screen.getAllByRole('row')).toHaveLength(51);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Doc 0059.pdf')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Showing 51–60 of 60 documents');
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Doc 0000.pdf')).toBeInTheDocument();
  });

  it('shows a member without an organisation how to set one up, not an upload', async () => {
    const { client } = await signUpUser();
    renderApp({ client, route: '/documents' });
    expect(await screen.findByRole('link', { name: 'Set Up Organization' }, PAGE)).toHaveAttribute(
      'href',
      '/users',
    );
    expect(
      screen.queryByText('No documents found. Upload your first document to get started!'),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upload Documents' })).not.toBeInTheDocument();
  });

  it('sorts by a column header', async () => {
    const { organization, user } = await openDocuments();
    await seedDocuments(organization, [
      { name: 'b.pdf', expiry_date: '2030-05-01', upload_date: '2025-01-03T00:00:00Z' },
      { name: 'a.pdf', expiry_date: null, upload_date: '2025-01-02T00:00:00Z' },
      { name: 'c.pdf', expiry_date: '2029-01-01', upload_date: '2025-01-01T00:00:00Z' },
    ]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('a.pdf', {}, PAGE);
    const names = () =>
      screen
        .getAllByRole('row')
        .slice(1)
        // The name itself, not the tags or the text state under it.
        .map((row) => within(row).getAllByRole('cell')[1]!.querySelector('[title]')?.textContent);
    expect(names()).toEqual(['b.pdf', 'a.pdf', 'c.pdf']);
    await user.click(
      within(screen.getByRole('columnheader', { name: 'Expiry Date' })).getByRole('button'),
    );
    await waitFor(() => expect(names()).toEqual(['c.pdf', 'b.pdf', 'a.pdf']));
    expect(screen.getByRole('columnheader', { name: 'Expiry Date' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await user.click(
      within(screen.getByRole('columnheader', { name: 'Name' })).getByRole('button'),
    );
    await waitFor(() => expect(names()).toEqual(['a.pdf', 'b.pdf', 'c.pdf']));
    await user.click(
      within(screen.getByRole('columnheader', { name: 'Name' })).getByRole('button'),
    );
    await waitFor(() => expect(names()).toEqual(['c.pdf', 'b.pdf', 'a.pdf']));
  });

  it('does not delete on Enter: the confirmation opens on Cancel', async () => {
    const { organization, user } = await openDocuments();
    await seedDocuments(organization, [{ name: 'keep me.pdf' }]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('keep me.pdf', {}, PAGE);
    await chooseRowAction(user, 'keep me.pdf', 'Delete');
    const confirm = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const rows = await serviceClient()
      .from('documents')
      .select('name')
      .eq('organization_id', organization.organizationId);
    expect(rows.data).toEqual([{ name: 'keep me.pdf' }]);
  });

  it('asks before leaving the page with changed properties not saved', async () => {
    const { organization, user } = await openDocuments();
    await seedDocuments(organization, [{ name: 'policy.pdf', category: 'Legal' }]);
    const { router } = renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('policy.pdf', {}, PAGE);
    await chooseRowAction(user, 'policy.pdf', 'Edit Properties');
    const dialog = await screen.findByRole('dialog', { name: /Edit Properties/ });
    await user.type(within(dialog).getByLabelText('Description'), 'Adopted in May');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getAllByRole('link', { name: 'Dashboard' })[0]!);
    const question = await screen.findByRole('dialog', { name: 'Leave this page?' });
    await user.click(within(question).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/documents');
    expect(within(dialog).getByLabelText('Description')).toHaveValue('Adopted in May');

    await user.click(within(nav).getAllByRole('link', { name: 'Dashboard' })[0]!);
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Leave this page?' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('renames a document in Edit Properties, keeping its extension', async () => {
    const { organization, user } = await openDocuments();
    const [document] = await seedDocuments(organization, [{ name: 'scan 0001.pdf' }]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('scan 0001.pdf', {}, PAGE);
    await chooseRowAction(user, 'scan 0001.pdf', 'Edit Properties');
    const dialog = await screen.findByRole('dialog');
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText('Please enter a name.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription(
      /^The file itself keeps its stored name; its extension stays\. Please enter a name\.$/,
    );
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();
    await user.type(within(dialog).getByLabelText('Name'), 'Architect report');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Architect report.pdf')).toBeInTheDocument();
    const saved = await serviceClient()
      .from('documents')
      .select('name, file_path')
      .eq('id', document!.id)
      .single();
    expect(saved.data).toEqual({ name: 'Architect report.pdf', file_path: document!.file_path });
  });

  it('tags and deletes selected documents at once, asking once with the count', async () => {
    const { organization, user } = await openDocuments();
    await seedDocuments(organization, [
      { name: 'one.pdf', tags: ['keep'] },
      { name: 'two.pdf' },
      { name: 'three.pdf' },
    ]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('one.pdf', {}, PAGE);
    await user.click(screen.getByRole('checkbox', { name: 'Select one.pdf' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select two.pdf' }));
    const bar = screen.getByRole('region', { name: 'Selected documents' });
    expect(bar).toHaveTextContent('2 documents selected');
    await user.type(within(bar).getByLabelText('Tags for the selected documents'), 'harvest, 2027');
    await user.click(within(bar).getByRole('button', { name: 'Add Tags' }));
    await waitFor(() => expect(within(rowOf('two.pdf')).getByText('harvest')).toBeInTheDocument());
    expect(within(rowOf('one.pdf')).getByText('keep')).toBeInTheDocument();
    expect(within(rowOf('one.pdf')).getByText('2027')).toBeInTheDocument();
    expect(within(rowOf('three.pdf')).queryByText('harvest')).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select one.pdf' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select three.pdf' }));
    await user.click(
      within(screen.getByRole('region', { name: 'Selected documents' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete 2 documents?');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('one.pdf')).not.toBeInTheDocument());
    expect(screen.queryByText('three.pdf')).not.toBeInTheDocument();
    expect(screen.getByText('two.pdf')).toBeInTheDocument();
    const left = await serviceClient()
      .from('documents')
      .select('name')
      .eq('organization_id', organization.organizationId)
      .is('deleted_at', null);
    expect(left.data).toEqual([{ name: 'two.pdf' }]);
  });

  it('opens the preview when the name is clicked', async () => {
    const { organization, user } = await openDocuments();
    await seedStoredDocument(organization, { name: 'rota.txt' }, 'Sunday rota', 'text/plain');
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('rota.txt', {}, PAGE);
    await user.click(screen.getByRole('button', { name: 'rota.txt' }));
    const dialog = await screen.findByRole('dialog', { name: /rota\.txt/ });
    expect(await within(dialog).findByText('Sunday rota', {}, PAGE)).toBeInTheDocument();
  });

  it('uploads a new version of a document without an expiry date, keeping the earlier file', async () => {
    const { organization, user } = await openDocuments();
    const stored = await seedStoredDocument(
      organization,
      { name: 'Volunteer Handbook.txt', category: 'HR' },
      'Handbook 2025',
      'text/plain',
    );
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('Volunteer Handbook.txt', {}, PAGE);
    await chooseRowAction(user, 'Volunteer Handbook.txt', 'Upload new version');
    const dialog = await screen.findByRole('dialog', { name: /Upload new version/ });
    const picker = within(dialog).getByLabelText(/New file/);
    // A file of another type would keep the name of a text file: said under the field.
    await user.upload(picker, new File(['%PDF-1.4'], 'Handbook.pdf', { type: 'application/pdf' }));
    expect(
      within(dialog).getByText(
        'Choose a .txt file: a new version keeps the name “Volunteer Handbook.txt”.',
      ),
    ).toBeInTheDocument();
    await user.upload(
      picker,
      new File(['Handbook 2026, edited'], 'Handbook (edited).txt', { type: 'text/plain' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Upload new version' }));
    expect(
      await findNotice('A new version of Volunteer Handbook.txt was uploaded.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: /Upload new version/ })).not.toBeInTheDocument();

    const service = serviceClient();
    const current = await service
      .from('documents')
      .select('name, file_path, expiry_date')
      .eq('id', stored.id)
      .single();
    expect(current.data!.name).toBe('Volunteer Handbook.txt');
    expect(current.data!.expiry_date).toBeNull();
    expect(await readStoredText(organization, current.data!.file_path)).toBe(
      'Handbook 2026, edited',
    );
    const versions = await service
      .from('document_versions')
      .select('version_number, change, file_path')
      .eq('document_id', stored.id);
    expect(versions.data).toEqual([
      { version_number: 1, change: 'file_replacement', file_path: stored.file_path },
    ]);
    expect(await readStoredText(organization, stored.file_path)).toBe('Handbook 2025');
  });

  it('takes a file dropped onto the preview as a new version and shows it at once', async () => {
    const { organization, user } = await openDocuments();
    const stored = await seedStoredDocument(
      organization,
      { name: 'rota.txt' },
      'Sunday rota, May',
      'text/plain',
    );
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('rota.txt', {}, PAGE);
    await user.click(screen.getByRole('button', { name: 'rota.txt' }));
    const dialog = await screen.findByRole('dialog', { name: /rota\.txt/ });
    const shown = await within(dialog).findByText('Sunday rota, May', {}, PAGE);
    const file = new File(['Sunday rota, June'], 'rota june.txt', { type: 'text/plain' });
    const dataTransfer = { files: [file], types: ['Files'] };
    fireEvent.dragOver(shown, { dataTransfer });
    expect(within(dialog).getByText('Drop the file to upload it as a new version')).toBeVisible();
    fireEvent.drop(shown, { dataTransfer });
    expect(within(dialog).getByText('rota june.txt')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Upload new version' }));
    expect(await within(dialog).findByText('Sunday rota, June', {}, PAGE)).toBeInTheDocument();
    expect(await findNotice('A new version of rota.txt was uploaded.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('tab', { name: 'Versions' }));
    expect(await within(dialog).findByText('Version 1: rota.txt', {}, PAGE)).toBeInTheDocument();
    const current = await serviceClient()
      .from('documents')
      .select('file_path')
      .eq('id', stored.id)
      .single();
    expect(await readStoredText(organization, current.data!.file_path)).toBe('Sunday rota, June');
  });

  it('selects every document on the page and e-mails them from the bulk bar or one row', async () => {
    const { organization, user } = await openDocuments();
    await seedDocuments(organization, [
      { name: 'one.pdf', size: 1024 },
      { name: 'two.pdf', size: 2048 },
      { name: 'three.pdf', size: 4096 },
    ]);
    renderApp({ client: organization.masterAdmin.client, route: '/documents' });
    await screen.findByText('one.pdf', {}, PAGE);

    await chooseRowAction(user, 'two.pdf', 'Email');
    let dialog = await screen.findByRole('dialog', { name: 'Email Documents' });
    expect(
      within(within(dialog).getByRole('region', { name: 'Attachments' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['two.pdf2 KB']);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    const all = screen.getByRole('checkbox', { name: 'Select all documents on this page' });
    await user.click(screen.getByRole('checkbox', { name: 'Select one.pdf' }));
    expect((all as HTMLInputElement).indeterminate).toBe(true);
    await user.click(all);
    expect(all).toBeChecked();
    const bar = screen.getByRole('region', { name: 'Selected documents' });
    expect(bar).toHaveTextContent('3 documents selected');
    await user.click(within(bar).getByRole('button', { name: 'Email Selected' }));
    dialog = await screen.findByRole('dialog', { name: 'Email Documents' });
    expect(
      within(within(dialog).getByRole('region', { name: 'Attachments' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent)
        .sort(),
    ).toEqual(['one.pdf1 KB', 'three.pdf4 KB', 'two.pdf2 KB']);
    await user.type(within(dialog).getByLabelText('To'), 'venue@example.org');
    await user.click(within(dialog).getByRole('button', { name: 'Send Email' }));
    expect(
      await findNotice(
        'Email kept in the Outbox: e-mail is not set up on this installation, so it was not sent.',
      ),
    ).toBeInTheDocument();
    // Sent from the selection: the selection is done with.
    expect(screen.queryByRole('region', { name: 'Selected documents' })).not.toBeInTheDocument();
    expect(all).not.toBeChecked();
    await user.click(all);
    await user.click(all);
    expect(screen.queryByRole('region', { name: 'Selected documents' })).not.toBeInTheDocument();
  });
});
