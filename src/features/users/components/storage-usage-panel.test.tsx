import { configure, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addMember, createOrganization } from '../../../testing/backend.ts';
import { renderApp } from '../../../testing/render.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

// Only for what the real backend cannot be brought to cheaply: an organisation with gigabytes
// stored, and a failing answer.
const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

const GIB = 1024 ** 3;

async function storagePanel() {
  const heading = await screen.findByRole('heading', { name: 'Storage' });
  return heading.closest('section')!;
}

function answerUsage(usedBytes: number, quotaBytes: number, parts: Record<string, number> = {}) {
  network.use(
    http.post(/\/rest\/v1\/rpc\/organization_storage_usage$/, () =>
      HttpResponse.json({ used_bytes: usedBytes, quota_bytes: quotaBytes, ...parts }),
    ),
  );
}

/** The lines of "What uses the space", as read. */
async function breakdownOf(panel: HTMLElement) {
  const heading = await within(panel).findByRole('heading', { name: 'What uses the space' });
  const list = heading.nextElementSibling!;
  return Array.from(list.children).map((line) =>
    Array.from(line.children).map((cell) => cell.textContent),
  );
}

describe('Storage usage on the users page', () => {
  it("shows admins what the organisation's files take of the quota", async () => {
    const org = await createOrganization();
    const admin = await addMember(org, 'admin');
    const path = `documents/${org.organizationId}/${Date.now()}-notes.txt`;
    const upload = await admin.client.storage
      .from('documents')
      .upload(path, new Blob(['x'.repeat(1536)], { type: 'text/plain' }));
    expect(upload.error).toBeNull();

    renderApp({ client: admin.client, route: '/users' });
    const panel = await storagePanel();
    expect(await within(panel).findByText('1.5 KB of 10 GB used')).toBeInTheDocument();
    expect(within(panel).getByRole('progressbar', { name: 'Storage used' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    expect(within(panel).queryByText(/storage is (nearly )?full/)).not.toBeInTheDocument();
  });

  it('shows what uses the space: documents, earlier versions, the trash and imports', async () => {
    const org = await createOrganization();
    const admin = await addMember(org, 'admin');
    const store = async (bucket: string, path: string, size: number) => {
      const { error } = await admin.client.storage
        .from(bucket)
        .upload(path, new Blob(['x'.repeat(size)], { type: 'application/zip' }));
      expect(error).toBeNull();
      return path;
    };
    let n = 0;
    const newPath = () => `documents/${org.organizationId}/${Date.now()}-${(n += 1)}.txt`;
    const addDocument = async (name: string, size: number) => {
      const { data, error } = await admin.client
        .from('documents')
        .insert({
          organization_id: org.organizationId,
          name,
          category: 'HR',
          size,
          file_path: await store('documents', newPath(), size),
        })
        .select('id')
        .single();
      expect(error).toBeNull();
      return data!.id;
    };
    const handbook = await addDocument('Handbook.txt', 1024);
    const edited = await admin.client.rpc('replace_document_file', {
      document_id: handbook,
      file_path: await store('documents', newPath(), 2048),
      change: 'content_edit',
    });
    expect(edited.error).toBeNull();
    const old = await addDocument('Old rota.txt', 512);
    expect((await admin.client.rpc('delete_documents', { document_ids: [old] })).error).toBeNull();
    await store('imports', `${org.organizationId}/library.zip`, 256);

    renderApp({ client: admin.client, route: '/users' });
    const panel = await storagePanel();
    expect(await within(panel).findByText('3.75 KB of 10 GB used')).toBeInTheDocument();
    expect(await breakdownOf(panel)).toEqual([
      ['Documents', '2 KB'],
      ['Earlier versions', '1 KB'],
      ['Trash', '512 Bytes'],
      ['Imports', '256 Bytes'],
    ]);
    expect(within(panel).queryByText(/latest export/)).not.toBeInTheDocument();
  });

  it('counts uploads in progress and other files, and says the latest export is not counted', async () => {
    const org = await createOrganization();
    answerUsage(6 * GIB, 10 * GIB, {
      documents_bytes: 4 * GIB,
      versions_bytes: 0,
      trash_bytes: 0,
      imports_bytes: 0,
      uploads_bytes: 1.5 * GIB,
      other_bytes: 0.5 * GIB,
      export_bytes: 3 * GIB,
    });
    renderApp({ client: org.masterAdmin.client, route: '/users' });
    const panel = await storagePanel();
    expect(await breakdownOf(panel)).toEqual([
      ['Documents', '4 GB'],
      ['Uploads in progress', '1.5 GB'],
      ['Other files', '512 MB'],
    ]);
    expect(
      within(panel).getByText(
        'The latest export (3 GB) is not counted; it is removed when it expires or a newer one is ready.',
      ),
    ).toBeVisible();
  });

  it('warns when the storage is nearly full, and says when it is full', async () => {
    const org = await createOrganization();
    answerUsage(9.5 * GIB, 10 * GIB);
    const view = renderApp({ client: org.masterAdmin.client, route: '/users' });
    let panel = await storagePanel();
    expect(await within(panel).findByText('9.5 GB of 10 GB used')).toBeInTheDocument();
    expect(within(panel).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '95');
    expect(within(panel).getByText("Your organization's storage is nearly full.")).toBeVisible();
    view.unmount();

    answerUsage(10 * GIB, 10 * GIB);
    renderApp({ client: org.masterAdmin.client, route: '/users' });
    panel = await storagePanel();
    expect(
      await within(panel).findByText(
        "Your organization's storage is full: uploads are refused until files are removed.",
      ),
    ).toBeVisible();
    expect(within(panel).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  });

  it('says when the usage cannot be read, and keeps the rest of the page', async () => {
    const org = await createOrganization();
    network.use(
      http.post(/\/rest\/v1\/rpc\/organization_storage_usage$/, () =>
        HttpResponse.json({ message: 'upstream unavailable' }, { status: 500 }),
      ),
    );
    renderApp({ client: org.masterAdmin.client, route: '/users' });
    const panel = await storagePanel();
    expect(
      await within(panel).findByText('Failed to load storage usage: upstream unavailable'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Team Members' })).toBeInTheDocument();
  });
});
