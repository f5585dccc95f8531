import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, passthrough } from 'msw';
import { FetchInterceptor } from '@mswjs/interceptors/fetch';
import { SetupServerApi } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, signUpUser } from '../../testing/backend.ts';
import { notices } from '../../testing/notices.ts';
import { renderApp } from '../../testing/render.tsx';
import { readStoredText, seedStoredDocument, serviceClient } from '../../testing/seed-documents.ts';

// The first render waits for the session, the profile and the lazily loaded page.
const PAGE = { timeout: 10_000 };

// Only to hold an upload open while the test looks at the page; it then goes to the real server.
// Requests made with fetch only: the file itself goes with XMLHttpRequest (for its progress),
// straight to the real server.
const network = new SetupServerApi([], [new FetchInterceptor()]);
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

/** A file as the browser's picker gives it (the upload sends it with XMLHttpRequest). */
function file(name: string, content: string, type = 'application/pdf'): File {
  return new File([content], name, { type });
}

async function openUpload() {
  const organization = await createOrganization();
  const view = renderApp({ client: organization.masterAdmin.client, route: '/upload' });
  await screen.findByRole('heading', { name: 'Upload Documents' }, PAGE);
  return { organization, user: userEvent.setup(), ...view };
}

async function storedDocuments(organizationId: string) {
  const { data } = await serviceClient()
    .from('documents')
    .select('name, category, expiry_date, tags, description, size, status, file_path')
    .eq('organization_id', organizationId)
    .order('name');
  return data ?? [];
}

async function storedObjects(organizationId: string) {
  const { data } = await serviceClient()
    .storage.from('documents')
    .list(`documents/${organizationId}`);
  return (data ?? []).map((entry) => entry.name);
}

describe('upload page', () => {
  it('asks for at least one file, then for a category, under the fields', async () => {
    const { user } = await openUpload();
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    expect(
      await screen.findByText('Please select at least one file to upload.'),
    ).toBeInTheDocument();
    const files = screen.getByLabelText('Choose files to upload');
    expect(files).toHaveAccessibleDescription(/Please select at least one file to upload\.$/);
    expect(files).toHaveFocus();

    await user.upload(files, file('a.pdf', 'x'));
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    expect(await screen.findByText('Please select a category.')).toBeInTheDocument();
    const category = screen.getByLabelText(/Category/);
    expect(category).toHaveAccessibleDescription('Please select a category.');
    expect(category).toHaveFocus();
    expect(screen.queryByText('Please select at least one file to upload.')).toBeNull();
    // Nothing opens over the form to say so.
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists the selected files with sizes and removes one', async () => {
    const { user } = await openUpload();
    const input = screen.getByLabelText('Choose files to upload');
    expect(input).toHaveAttribute('accept', '.pdf,.doc,.docx,.xls,.xlsx,.jpg,.jpeg,.png,.gif');
    expect(input).toHaveAttribute('multiple');
    expect(screen.getByText(/up to 10MB/)).toBeInTheDocument();
    await user.upload(input, [file('one.pdf', 'x'.repeat(2048)), file('two.pdf', 'y')]);
    const list = screen.getByRole('region', { name: 'Selected files (2)' });
    expect(within(list).getByText('one.pdf')).toBeInTheDocument();
    expect(within(list).getByText('2 KB')).toBeInTheDocument();
    expect(within(list).getByText('1 Bytes')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Remove one.pdf' }));
    expect(screen.getByRole('region', { name: 'Selected files (1)' })).not.toHaveTextContent(
      'one.pdf',
    );
  });

  it('uploads several files with their properties and goes to the documents page', async () => {
    const { organization, user, router } = await openUpload();
    await user.upload(screen.getByLabelText('Choose files to upload'), [
      file('Budget 2025.pdf', '%PDF-1.4 budget'),
      file('minutes.docx', 'hello', ''),
    ]);
    await user.selectOptions(screen.getByLabelText(/Category/), 'Financial');
    await user.type(screen.getByLabelText('Expiry Date'), '2026-06-30');
    await user.type(screen.getByLabelText('Tags'), ' budget, ,2025 ,');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/documents'), PAGE);
    const rows = await storedDocuments(organization.organizationId);
    expect(rows).toEqual([
      expect.objectContaining({
        name: 'Budget 2025.pdf',
        category: 'Financial',
        expiry_date: '2026-06-30',
        tags: ['budget', '2025'],
        description: null,
        size: 15,
        status: 'Active',
      }),
      expect.objectContaining({ name: 'minutes.docx', size: 5, tags: ['budget', '2025'] }),
    ]);
    for (const row of rows) {
      expect(row.file_path).toMatch(
        new RegExp(`^documents/${organization.organizationId}/\\d+-[a-z0-9]+\\.(pdf|docx)$`),
      );
    }
    expect((await storedObjects(organization.organizationId)).sort()).toEqual(
      rows.map((row) => row.file_path.split('/').pop()).sort(),
    );
  });

  it('opens the list with what was uploaded named and its rows marked New, until dismissed', async () => {
    const { organization, user, router } = await openUpload();
    await seedStoredDocument(organization, { name: 'older.pdf' }, 'old');
    await user.upload(screen.getByLabelText('Choose files to upload'), [
      file('first.pdf', 'one'),
      file('second.pdf', 'two'),
    ]);
    await user.selectOptions(screen.getByLabelText(/Category/), 'Reports');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/documents'), PAGE);
    const notice = await screen.findByText(/documents were uploaded/, {}, PAGE);
    expect(notice).toHaveTextContent(
      /^2 documents were uploaded: (first\.pdf and second\.pdf|second\.pdf and first\.pdf)\. They are marked New in the list\.$/,
    );
    const table = await screen.findByRole('table');
    await within(table).findByText('older.pdf');
    const rowOf = (name: string) => within(table).getByText(name).closest('tr')!;
    for (const name of ['first.pdf', 'second.pdf']) {
      expect(rowOf(name)).toHaveAttribute('data-highlighted', 'true');
      expect(within(rowOf(name)).getByText('New')).toBeInTheDocument();
    }
    expect(rowOf('older.pdf')).not.toHaveAttribute('data-highlighted');
    expect(within(rowOf('older.pdf')).queryByText('New')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/documents were uploaded/)).toBeNull();
    expect(within(table).queryByText('New')).toBeNull();
    expect(router.state.location.pathname).toBe('/documents');
  });

  it('keeps the files that uploaded, names the ones that failed, and leaves no stray file', async () => {
    const { organization, user, router } = await openUpload();
    // A name longer than the database allows: the bytes upload, the row is refused.
    const tooLong = `${'x'.repeat(500)}.pdf`;
    await user.upload(screen.getByLabelText('Choose files to upload'), [
      file('good.pdf', 'fine'),
      file(tooLong, 'refused'),
    ]);
    await user.selectOptions(screen.getByLabelText(/Category/), 'Reports');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));

    expect(
      await within(notices()).findByText(
        /^Upload failed: 1 of 2 files could not be uploaded: x+\.pdf \(.+\)\. The other file was uploaded\.$/,
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/upload');
    const list = screen.getByRole('region', { name: /Selected files/ });
    expect(within(list).getByText('Uploaded')).toBeInTheDocument();
    expect(within(list).getByText('Failed')).toBeInTheDocument();

    const rows = await storedDocuments(organization.organizationId);
    expect(rows.map((row) => row.name)).toEqual(['good.pdf']);
    expect(await storedObjects(organization.organizationId)).toEqual([
      rows[0]!.file_path.split('/').pop(),
    ]);

    // Trying again sends only the failed file, which fails again; nothing is duplicated.
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    await waitFor(
      () => expect(within(notices()).getAllByText(/^Upload failed: /)).toHaveLength(2),
      { timeout: 10_000 },
    );
    expect((await storedDocuments(organization.organizationId)).map((row) => row.name)).toEqual([
      'good.pdf',
    ]);

    // The one that went in is a link away, marked in the list.
    await user.click(screen.getByRole('link', { name: 'See the uploaded file in Documents' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/documents'));
    expect(
      await screen.findByText('1 document was uploaded: good.pdf. It is marked New in the list.'),
    ).toBeInTheDocument();
    const table = await screen.findByRole('table', {}, PAGE);
    expect(within(table).getByText('good.pdf').closest('tr')).toHaveAttribute(
      'data-highlighted',
      'true',
    );
  });

  it('returns to the documents page on Cancel', async () => {
    const { user, router } = await openUpload();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/documents'));
  });

  it('asks a user without an organisation to set one up first', async () => {
    const { client } = await signUpUser();
    renderApp({ client, route: '/upload' });
    expect(await screen.findByRole('link', { name: 'Set Up Organization' }, PAGE)).toHaveAttribute(
      'href',
      '/users',
    );
  });

  it('refuses dropped files of other types up front, naming them', async () => {
    await openUpload();
    const zone = screen.getByText(/Drag and drop files here/).parentElement!;
    fireEvent.drop(zone, {
      dataTransfer: {
        files: [file('Budget 2026.pdf', 'x'), file('setup.exe', 'MZ', ''), file('a.sh', 'x', '')],
      },
    });
    const list = screen.getByRole('region', { name: 'Selected files (1)' });
    expect(within(list).getByText('Budget 2026.pdf')).toBeInTheDocument();
    // Said under the zone, whose picker it describes.
    const refused =
      'setup.exe, a.sh were not added: only PDF, Word, Excel and image files (JPG, PNG, GIF) can be uploaded.';
    expect(screen.getByText(refused)).toBeInTheDocument();
    expect(screen.getByLabelText('Choose files to upload')).toHaveAccessibleDescription(
      new RegExp(`${refused.replace(/[.()]/g, '\\$&')}$`),
    );
    expect(list).not.toHaveTextContent('setup.exe');

    // Files chosen afterwards clear the message; what the picker gives is taken as chosen (the
    // picker's types are its offer, spec §5), a text file too ("All files" in the picker).
    const picker = userEvent.setup({ applyAccept: false });
    await picker.upload(screen.getByLabelText('Choose files to upload'), [
      file('two.pdf', 'y'),
      file('notes.txt', 'z', 'text/plain'),
    ]);
    expect(screen.queryByText(refused)).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Selected files (3)' })).getByText('notes.txt'),
    ).toBeInTheDocument();
  });

  it('asks before leaving while files are still uploading', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Held at its first request: looking up whether the organisation has the file already.
    network.use(
      http.post('*/rest/v1/rpc/find_duplicate_documents', async () => {
        await held;
        return passthrough();
      }),
    );
    const { user, router } = await openUpload();
    await user.upload(screen.getByLabelText('Choose files to upload'), file('big.pdf', 'x'));
    await user.selectOptions(screen.getByLabelText(/Category/), 'Reports');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    expect(await screen.findByRole('button', { name: 'Uploading...' })).toBeDisabled();

    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getAllByRole('link', { name: 'Documents' })[0]!);
    const question = await screen.findByRole('dialog', { name: 'Leave this page?' });
    expect(question).toHaveTextContent('Files are still being uploaded.');
    expect(within(question).getByRole('button', { name: 'Stay' })).toHaveFocus();
    await user.click(within(question).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/upload');

    // Once the upload is through, the page goes to the list without asking.
    await delay(0);
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/documents'), PAGE);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('gives files their own details, and the batch form to the rest', async () => {
    const { organization, user, router } = await openUpload();
    await user.upload(screen.getByLabelText('Choose files to upload'), [
      file('minutes.pdf', 'minutes'),
      file('contract.pdf', 'contract'),
    ]);
    await user.selectOptions(screen.getByLabelText(/Category/), 'Financial');
    await user.click(screen.getByRole('button', { name: 'Own details for contract.pdf' }));
    const own = screen.getByRole('group', { name: 'Details of contract.pdf' });
    // Starts from the batch's values.
    expect(within(own).getByLabelText(/Category/)).toHaveValue('Financial');
    // A file's own details need a category too: said under that file's field.
    await user.selectOptions(within(own).getByLabelText(/Category/), '');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    expect(within(own).getByLabelText(/Category/)).toHaveAccessibleDescription(
      'Please select a category for contract.pdf.',
    );
    expect(within(own).getByLabelText(/Category/)).toHaveFocus();
    await user.selectOptions(within(own).getByLabelText(/Category/), 'Legal');
    expect(within(own).getByLabelText(/Category/)).not.toBeInvalid();
    await user.type(within(own).getByLabelText('Tags'), 'lease');
    expect(screen.getByRole('button', { name: 'Apply to all files' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/documents'), PAGE);
    expect(await storedDocuments(organization.organizationId)).toEqual([
      expect.objectContaining({ name: 'contract.pdf', category: 'Legal', tags: ['lease'] }),
      expect.objectContaining({ name: 'minutes.pdf', category: 'Financial', tags: [] }),
    ]);
  });

  it('puts the batch form back on every file with Apply to all files', async () => {
    const { user } = await openUpload();
    await user.upload(screen.getByLabelText('Choose files to upload'), [file('a.pdf', 'a')]);
    await user.click(screen.getByRole('button', { name: 'Own details for a.pdf' }));
    expect(screen.getByRole('group', { name: 'Details of a.pdf' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply to all files' }));
    expect(screen.queryByRole('group', { name: 'Details of a.pdf' })).not.toBeInTheDocument();
  });

  it('warns about a file the organisation already has: skip it, keep both or make it a new version', async () => {
    const organization = await createOrganization();
    await seedStoredDocument(organization, { name: 'Rota May.pdf' }, 'The rota for May');
    const view = renderApp({ client: organization.masterAdmin.client, route: '/upload' });
    await screen.findByRole('heading', { name: 'Upload Documents' }, PAGE);
    const user = userEvent.setup();
    const again = () => file('rota-copy.pdf', 'The rota for May');

    await user.upload(screen.getByLabelText('Choose files to upload'), again());
    await user.selectOptions(screen.getByLabelText(/Category/), 'Other');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    const question = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(question).toHaveTextContent(
      '"rota-copy.pdf" is already in your documents as "Rota May.pdf". Upload it as a new version of "Rota May.pdf", keep both, or skip it?',
    );
    // Skip, the safe choice, has the focus.
    await waitFor(() =>
      expect(within(question).getByRole('button', { name: 'Skip' })).toHaveFocus(),
    );
    await user.click(within(question).getByRole('button', { name: 'Skip' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: /Selected files/ })).not.toBeInTheDocument(),
    );
    expect((await storedDocuments(organization.organizationId)).map((d) => d.name)).toEqual([
      'Rota May.pdf',
    ]);

    await user.upload(screen.getByLabelText('Choose files to upload'), again());
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Please confirm' })).getByRole('button', {
        name: 'Keep both',
      }),
    );
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/documents'), PAGE);
    expect((await storedDocuments(organization.organizationId)).map((d) => d.name)).toEqual([
      'Rota May.pdf',
      'rota-copy.pdf',
    ]);
  });

  it('offers an edited file with the name of a document as a new version of it, keeping the earlier file', async () => {
    const organization = await createOrganization();
    const handbook = await seedStoredDocument(
      organization,
      { name: 'Volunteer Handbook.pdf', category: 'HR', expiry_date: '2030-06-30' },
      'Handbook 2025',
    );
    const view = renderApp({ client: organization.masterAdmin.client, route: '/upload' });
    await screen.findByRole('heading', { name: 'Upload Documents' }, PAGE);
    const user = userEvent.setup();
    await user.upload(
      screen.getByLabelText('Choose files to upload'),
      file('Volunteer Handbook.pdf', 'Handbook 2026, edited'),
    );
    await user.selectOptions(screen.getByLabelText(/Category/), 'Other');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    const question = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(question).toHaveTextContent(
      '"Volunteer Handbook.pdf" is already in your documents. Upload it as a new version of "Volunteer Handbook.pdf", keep both, or skip it?',
    );
    await user.click(within(question).getByRole('button', { name: 'Upload as a new version' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/documents'), PAGE);

    // Still one document, with its category and expiry date, and the new bytes; the earlier
    // file is its version 1.
    const documents = await storedDocuments(organization.organizationId);
    expect(documents.map((d) => d.name)).toEqual(['Volunteer Handbook.pdf']);
    const current = await serviceClient()
      .from('documents')
      .select('id, category, expiry_date, file_path')
      .eq('organization_id', organization.organizationId)
      .single();
    expect(current.data).toMatchObject({
      id: handbook.id,
      category: 'HR',
      expiry_date: '2030-06-30',
    });
    expect(await readStoredText(organization, current.data!.file_path)).toBe(
      'Handbook 2026, edited',
    );
    const versions = await serviceClient()
      .from('document_versions')
      .select('version_number, change, file_path')
      .eq('document_id', handbook.id);
    expect(versions.data).toEqual([
      { version_number: 1, change: 'file_replacement', file_path: handbook.file_path },
    ]);
  });

  it('does not offer a file of another type as a new version of a document with its bytes', async () => {
    const organization = await createOrganization();
    await seedStoredDocument(organization, { name: 'Rota May.txt' }, 'The rota for May');
    renderApp({ client: organization.masterAdmin.client, route: '/upload' });
    await screen.findByRole('heading', { name: 'Upload Documents' }, PAGE);
    const user = userEvent.setup();
    await user.upload(
      screen.getByLabelText('Choose files to upload'),
      file('rota.pdf', 'The rota for May'),
    );
    await user.selectOptions(screen.getByLabelText(/Category/), 'Other');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    const question = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(question).toHaveTextContent(
      '"rota.pdf" is already in your documents as "Rota May.txt". Upload it again?',
    );
    expect(
      within(question).queryByRole('button', { name: 'Upload as a new version' }),
    ).not.toBeInTheDocument();
    await user.click(within(question).getByRole('button', { name: 'Skip' }));
  });

  it('refuses an empty file, naming it, and uploads the others', async () => {
    const { organization, user } = await openUpload();
    await user.upload(screen.getByLabelText('Choose files to upload'), [
      file('empty.pdf', ''),
      file('full.pdf', 'content'),
    ]);
    await user.selectOptions(screen.getByLabelText(/Category/), 'Reports');
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    expect(
      await within(notices()).findByText(/empty\.pdf \(The file is empty\)/, {}, PAGE),
    ).toBeInTheDocument();
    expect((await storedDocuments(organization.organizationId)).map((d) => d.name)).toEqual([
      'full.pdf',
    ]);
  });
});
