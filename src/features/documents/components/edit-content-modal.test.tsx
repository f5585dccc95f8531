import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, type TestOrganization } from '../../../testing/backend.ts';
import { findNotice } from '../../../testing/notices.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import type { DocumentRecord } from '../../../lib/documents.ts';
import {
  readStoredText,
  seedDocuments,
  seedStoredDocument,
  serviceClient,
} from '../../../testing/seed-documents.ts';
import { EditContentModal } from './edit-content-modal.tsx';

const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

let organization: TestOrganization;
beforeAll(async () => {
  organization = await createOrganization();
});

function open(document: DocumentRecord) {
  const saved: DocumentRecord[] = [];
  let closed = false;
  renderWithProviders(
    <EditContentModal
      document={document}
      onClose={() => (closed = true)}
      onSaved={(row) => saved.push(row)}
    />,
    { client: organization.masterAdmin.client },
  );
  return { saved, wasClosed: () => closed };
}

describe('edit-content modal', () => {
  it('edits a text file, keeping the previous text as an earlier version', async () => {
    const user = userEvent.setup();
    const document = await seedStoredDocument(organization, { name: 'notes.md' }, 'Old line');
    const modal = open(document);
    const editor = await screen.findByRole('textbox', { name: 'Content of notes.md' });
    expect(editor).toHaveValue('Old line');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.clear(editor);
    await user.type(editor, 'New line — café');
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('All changes saved')).toBeInTheDocument();
    // The header shows the size of what is stored now.
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(/· 18 Bytes ·/);

    const size = new TextEncoder().encode('New line — café').length;
    expect(modal.saved.map((row) => [row.id, row.size])).toEqual([[document.id, size]]);
    const row = await serviceClient()
      .from('documents')
      .select('size, file_path')
      .eq('id', document.id)
      .single();
    expect(row.data?.size).toBe(size);
    expect(row.data?.file_path).not.toBe(document.file_path);
    expect(await readStoredText(organization, row.data!.file_path)).toBe('New line — café');
    // The previous text stays, as version 1.
    expect(await readStoredText(organization, document.file_path)).toBe('Old line');
    const versions = await serviceClient()
      .from('document_versions')
      .select('version_number, change, file_path')
      .eq('document_id', document.id);
    expect(versions.data).toEqual([
      { version_number: 1, change: 'content_edit', file_path: document.file_path },
    ]);

    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(modal.wasClosed()).toBe(true);
  });

  it('asks before closing with unsaved changes', async () => {
    const user = userEvent.setup();
    const document = await seedStoredDocument(organization, { name: 'draft.txt' }, 'x');
    const modal = open(document);
    await user.type(await screen.findByRole('textbox', { name: 'Content of draft.txt' }), 'y');
    await user.click(screen.getAllByRole('button', { name: 'Close' })[0]!);
    const confirm = await screen.findByRole('dialog', { name: 'Please confirm' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(modal.wasClosed()).toBe(false);
  });

  it('shows File Not Editable for other files', async () => {
    const [document] = await seedDocuments(organization, [{ name: 'scan.pdf' }]);
    open(document!);
    expect(await screen.findByRole('heading', { name: 'File Not Editable' })).toBeInTheDocument();
    expect(
      screen.getByText('Only text-based files (txt, md, csv, etc.) can be edited.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('shows Error Loading Document when the file cannot be read', async () => {
    const [document] = await seedDocuments(organization, [{ name: 'missing.csv' }]);
    open(document!);
    const panel = await screen.findByRole('alert');
    expect(panel).toHaveTextContent('Error Loading Document');
    expect(panel).toHaveTextContent('Failed to load document content');
  });

  it('says Failed to save document and keeps the text when saving fails', async () => {
    const user = userEvent.setup();
    const document = await seedStoredDocument(organization, { name: 'keep.txt' }, 'stored');
    network.use(
      http.post('*/storage/v1/object/documents/*', () =>
        HttpResponse.json(
          { statusCode: '500', error: 'internal', message: 'disk full' },
          { status: 500 },
        ),
      ),
    );
    open(document);
    const editor = await screen.findByRole('textbox', { name: 'Content of keep.txt' });
    await user.type(editor, ' and more');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findNotice('Failed to save document')).toBeInTheDocument();
    expect(editor).toHaveValue('stored and more');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
    expect(await readStoredText(organization, document.file_path)).toBe('stored');
  });
});
