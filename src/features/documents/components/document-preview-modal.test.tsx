import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, type TestOrganization } from '../../../testing/backend.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { seedDocuments, seedStoredDocument } from '../../../testing/seed-documents.ts';
import { paragraph, table, wordDocument } from '../../../../tests/support/office-files.ts';
import { DocumentPreviewModal } from './document-preview-modal.tsx';

const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

// jsdom has no object URLs; the browser's createObjectURL is stood in for by one that records
// the blobs it was given, so a test can check what the preview would show.
const objectUrls = new Map<string, Blob>();
beforeAll(() => {
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:test/${objectUrls.size + 1}`;
    objectUrls.set(url, blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => void objectUrls.delete(url);
});

let organization: TestOrganization;
beforeAll(async () => {
  organization = await createOrganization();
});

function open(document: Parameters<typeof DocumentPreviewModal>[0]['document']) {
  let closed = false;
  renderWithProviders(
    <DocumentPreviewModal document={document} onClose={() => (closed = true)} />,
    {
      client: organization.masterAdmin.client,
    },
  );
  return { wasClosed: () => closed };
}

describe('document preview modal', () => {
  it('shows name, category, size and created date in the header, with Download and Close', async () => {
    const document = await seedStoredDocument(
      organization,
      { name: 'agenda.md', category: 'Governance', created_at: '2025-03-04T10:00:00Z' },
      '# Agenda\n\n1. Welcome',
    );
    const modal = open(document);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { level: 2 })).toHaveTextContent(
      'agenda.mdGovernance · 20 Bytes · Mar 04, 2025',
    );
    expect(await within(dialog).findByText(/# Agenda/)).toHaveTextContent('1. Welcome');
    expect(within(dialog).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(modal.wasClosed()).toBe(true);
  });

  it('shows an image from the file it fetched through a signed link', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const document = await seedStoredDocument(
      organization,
      { name: 'photo.PNG' },
      png,
      'image/png',
    );
    open(document);
    const image = await screen.findByRole('img', { name: 'photo.PNG' });
    const blob = objectUrls.get(image.getAttribute('src')!)!;
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(png);
  });

  it('shows a PDF in a frame, from an address ending with the document’s name', async () => {
    const document = await seedStoredDocument(
      organization,
      { name: 'Budget 2027.pdf' },
      '%PDF-1.4\n',
      'application/pdf',
    );
    open(document);
    const frame = await screen.findByTitle('Preview of Budget 2027.pdf');
    expect(frame.tagName).toBe('IFRAME');
    // The browser's PDF viewer titles itself with the address's last segment, not a blob UUID.
    const address = new URL(frame.getAttribute('src')!);
    expect(address.pathname).toBe('/preview/v1/file/Budget%202027.pdf');
    const served = await fetch(address);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(await served.text()).toBe('%PDF-1.4\n');
  });

  it('shows a Word file as Steward renders it, in a sandboxed frame titled with its name', async () => {
    const docx = wordDocument(
      paragraph('Minutes of the council', { style: 'Heading1' }) +
        table([
          ['Item', 'Decision'],
          ['Roof', 'Repair in spring'],
        ]),
    );
    const document = await seedStoredDocument(
      organization,
      { name: 'Minutes.docx' },
      docx,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    open(document);
    // The first rendering starts a background process: a few seconds on a busy machine.
    const frame = await screen.findByTitle('Minutes.docx', {}, { timeout: 20_000 });
    expect(frame.tagName).toBe('IFRAME');
    // Sandboxed with no permission at all: the page may run nothing, nor reach the app.
    expect(frame.getAttribute('sandbox')).toBe('');
    const address = new URL(frame.getAttribute('src')!);
    expect(address.pathname).toBe('/preview/v1/office/Minutes.docx');
    const page = await (await fetch(address)).text();
    expect(page).toContain('<h1>Minutes of the council</h1>');
    expect(page).toContain('Repair in spring');
    expect(screen.queryByRole('link', { name: /Office Online/ })).not.toBeInTheDocument();
    expect(window.document.body.innerHTML).not.toContain('officeapps');
  });

  it('says why a Word file cannot be previewed, beside Download', async () => {
    const document = await seedStoredDocument(organization, { name: 'broken.docx' }, 'PK');
    open(document);
    const panel = await screen.findByRole('alert');
    expect(panel).toHaveTextContent('Unable to load document');
    expect(panel).toHaveTextContent(
      'This file is not a Word (.docx) or Excel (.xlsx) file that can be previewed',
    );
    expect(within(panel).getByRole('button', { name: 'Download File' })).toBeInTheDocument();
  });

  it('offers older Office files for download only, sending no link anywhere', async () => {
    const document = await seedStoredDocument(organization, { name: 'minutes.doc' }, 'old');
    const signed: string[] = [];
    network.use(
      http.post('*/storage/v1/object/sign/*', ({ request }) => {
        signed.push(request.url);
        return passthrough();
      }),
    );
    open(document);
    expect(
      await screen.findByText(
        'Only Word (.docx) and Excel (.xlsx) files can be shown here. Download the file to open it on your computer.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download File' })).toBeInTheDocument();
    expect(signed).toEqual([]);
    expect(window.document.body.innerHTML).not.toContain('officeapps');
  });

  it('offers other files for download only', async () => {
    const document = await seedStoredDocument(organization, { name: 'members.csv' }, 'a,b');
    open(document);
    expect(await screen.findByText('Preview not available')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download File' })).toBeInTheDocument();
  });

  it.each([
    ['broken.gif', 'img', 'Image could not be displayed.'],
    ['sermon.mp4', 'video', 'Video could not be displayed.'],
    ['hymn.mp3', 'audio', 'Audio could not be played.'],
  ])('says when the browser cannot show %s', async (name, tag, message) => {
    const document = await seedStoredDocument(organization, { name }, 'not really media');
    open(document);
    await screen.findByRole('dialog');
    const element = await screen.findByTestId('preview-media');
    expect(element.tagName.toLowerCase()).toBe(tag);
    // The browser's own answer when it cannot decode the file.
    fireEvent.error(element);
    const panel = await screen.findByRole('alert');
    expect(panel).toHaveTextContent('Unable to load document');
    expect(panel).toHaveTextContent(message);
    expect(within(panel).getByRole('button', { name: 'Download File' })).toBeInTheDocument();
  });

  it('says PDF could not be displayed for a .pdf that is not a PDF', async () => {
    const document = await seedStoredDocument(organization, { name: 'scan.pdf' }, 'plain text');
    open(document);
    const panel = await screen.findByRole('alert');
    expect(panel).toHaveTextContent('Unable to load document');
    expect(panel).toHaveTextContent('PDF could not be displayed.');
    expect(screen.queryByTitle('Preview of scan.pdf')).not.toBeInTheDocument();
  });

  it('shows the Unable to load document panel when the file is missing', async () => {
    const [document] = await seedDocuments(organization, [{ name: 'gone.pdf' }]);
    open(document!);
    const panel = await screen.findByRole('alert');
    expect(panel).toHaveTextContent('Unable to load document');
    expect(panel).toHaveTextContent('Failed to load document.');
    expect(within(panel).getByRole('button', { name: 'Download File' })).toBeInTheDocument();
  });

  it('falls back to the public link when signing fails', async () => {
    const document = await seedStoredDocument(organization, { name: 'private.txt' }, 'secret');
    const requested: string[] = [];
    network.use(
      http.post('*/storage/v1/object/sign/*', () =>
        HttpResponse.json(
          { statusCode: '500', error: 'internal', message: 'boom' },
          { status: 500 },
        ),
      ),
      http.get('*/storage/v1/object/public/*', ({ request }) => {
        requested.push(new URL(request.url).pathname);
        return passthrough();
      }),
    );
    open(document);
    // The bucket is private, so the public link cannot serve the file either.
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load document.');
    expect(requested).toEqual([`/storage/v1/object/public/documents/${document.file_path}`]);
  });
});
