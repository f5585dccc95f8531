import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization } from '../../testing/backend.ts';
import { notices } from '../../testing/notices.ts';
import { renderApp } from '../../testing/render.tsx';

const slow = { timeout: 8000 };

// Only for answers the real backend cannot be made to give (a failing database, a refused
// write); every other request goes to the real backend.
const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

/**
 * A server failure. Not a dropped connection: supabase-js retries reads after those for
 * seconds (as a browser would), which only slows the test down.
 */
const failure = () =>
  HttpResponse.json(
    { code: 'XX000', details: null, hint: null, message: 'The database is unavailable' },
    { status: 500 },
  );

function statValue(label: string): string | null {
  return screen.getByText(label, { selector: 'p' }).nextElementSibling?.textContent ?? null;
}

describe('when the server cannot answer', { timeout: 60_000 }, () => {
  it('the Operations Center says which figures are missing', async () => {
    const organization = await createOrganization();
    network.use(http.head(/\/rest\/v1\/custom_integrations/, failure));
    renderApp({ client: organization.masterAdmin.client, route: '/operations' });
    expect(await screen.findByRole('alert', {}, slow)).toHaveTextContent(
      'Some figures could not be loaded:',
    );
    expect(statValue('Active Integrations')).toBe('—');
    expect(statValue('Total Operations')).toBe('9');
    expect(screen.getAllByRole('link', { name: /^(HR|Legal)/ }).length).toBeGreaterThan(0);
  });

  it('a category page still offers the built-in tools, read-only, and reports the failure', async () => {
    const organization = await createOrganization();
    network.use(
      http.get(/\/rest\/v1\/integration_customizations/, failure),
      http.post(/\/rest\/v1\/rpc\/count_documents_matching/, failure),
      http.post(/\/rest\/v1\/rpc\/search_documents/, failure),
    );
    renderApp({ client: organization.masterAdmin.client, route: '/operations/it' });
    expect(
      await screen.findByText(
        /Your organization’s integration settings could not be loaded/,
        {},
        slow,
      ),
    ).toBeVisible();
    expect(screen.getByRole('article', { name: 'Google Workspace' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Add Integration' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Google Workspace' })).not.toBeInTheDocument();
    expect(statValue('Available Tools')).toBe('—');
    await waitFor(() => expect(statValue('Related Documents')).toBe('—'), slow);
    expect(await screen.findByText(/^Error loading documents:/, {}, slow)).toBeVisible();
  });

  it('the Corporate Status Dashboard reports that it could not load', async () => {
    const organization = await createOrganization();
    network.use(http.get(/\/rest\/v1\/corporate_status/, failure));
    renderApp({ client: organization.masterAdmin.client, route: '/operations/legal' });
    expect(
      await screen.findByText(/The corporate status could not be loaded/, {}, slow),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Edit Status' })).not.toBeInTheDocument();
  });

  it('the edit dialog stays open, and a notice gives the server’s message, when saving is refused', async () => {
    const organization = await createOrganization();
    network.use(
      http.post(/\/rest\/v1\/custom_integrations/, () =>
        HttpResponse.json(
          {
            code: '42501',
            details: null,
            hint: null,
            message: 'permission denied for table custom_integrations',
          },
          { status: 403 },
        ),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderApp({ client: organization.masterAdmin.client, route: '/operations/branding' });
    await screen.findByRole('list', { name: 'Integrations' }, slow);
    await user.click(screen.getByRole('button', { name: 'Add Integration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Integration' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(
      await within(notices()).findByText(
        'Could not save: permission denied for table custom_integrations',
        {},
        slow,
      ),
    ).toBeInTheDocument();
    // One failure, one notice: the save is one mutation.
    expect(within(notices()).getAllByText(/permission denied/)).toHaveLength(1);
    expect(within(dialog).getByRole('button', { name: 'Save Changes' })).toBeEnabled();
    expect(statValue('Available Tools')).toBe('1');
  });
});
