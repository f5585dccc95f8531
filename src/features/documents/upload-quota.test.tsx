import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { File as NodeFile } from 'node:buffer';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createOrganization } from '../../testing/backend.ts';
import { notices } from '../../testing/notices.ts';
import { renderApp } from '../../testing/render.tsx';
import { serviceClient } from '../../testing/seed-documents.ts';

// A full organisation cannot be made cheaply against the test backend (its quota is 10 GiB):
// the storage API's answer is the one the server gives when the quota trigger refuses a file
// (tests/backend/storage-quota.test.ts). Everything else goes to the real backend.
const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

const FULL = "Your organization's storage is full (quota: 10 GB)";

it("says in the upload's notice that the organisation's storage is full, and stores nothing", async () => {
  const organization = await createOrganization();
  network.use(
    http.post(/\/storage\/v1\/object\/documents\//, () =>
      HttpResponse.json(
        { statusCode: '403', code: 'AccessDenied', error: 'Unauthorized', message: FULL },
        { status: 400 },
      ),
    ),
  );
  renderApp({ client: organization.masterAdmin.client, route: '/upload' });
  await screen.findByRole('heading', { name: 'Upload Documents' }, { timeout: 10_000 });
  const user = userEvent.setup();
  await user.upload(
    screen.getByLabelText('Choose files to upload'),
    new NodeFile(['%PDF-1.4'], 'minutes.pdf', { type: 'application/pdf' }) as unknown as File,
  );
  await user.selectOptions(screen.getByLabelText(/Category/), 'Reports');
  await user.click(screen.getByRole('button', { name: 'Upload Documents' }));

  const notice = await within(notices()).findByText(/^Upload failed/, {}, { timeout: 10_000 });
  expect(notice.textContent).toBe(`Upload failed: ${FULL}`);
  const { data } = await serviceClient()
    .from('documents')
    .select('id')
    .eq('organization_id', organization.organizationId);
  expect(data).toEqual([]);
});
