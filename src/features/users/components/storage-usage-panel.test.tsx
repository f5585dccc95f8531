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

function answerUsage(usedBytes: number, quotaBytes: number) {
  network.use(
    http.post(/\/rest\/v1\/rpc\/organization_storage_usage$/, () =>
      HttpResponse.json({ used_bytes: usedBytes, quota_bytes: quotaBytes }),
    ),
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
