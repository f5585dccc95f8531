import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganization,
  serviceClient,
  signUpUser,
  type TestUser,
} from '../../testing/backend.ts';
import { findNotice } from '../../testing/notices.ts';
import { renderApp } from '../../testing/render.tsx';
import { configureProvider, connectAs, MockProvider } from './testing/connect.ts';

// The Connections page against the real backend and the real `oauth` function, with a local
// HTTP server as the provider.

const provider = new MockProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());
beforeEach(() => provider.reset());

const EXPIRY = /^[A-Z][a-z]{2} \d{2}, \d{4} \d{2}:\d{2}$/;
/** Waits that include a round trip through the function and the provider. */
const SERVER = { timeout: 10_000 };

async function openConnections(as: TestUser) {
  const view = renderApp({ client: as.client, route: '/oauth' });
  // The first render loads the lazy route, the session and the profile: allow for a cold start.
  await screen.findByRole('heading', { name: 'OAuth Connections' }, { timeout: 10_000 });
  await screen.findByRole('article', { name: 'Slack' }, { timeout: 10_000 });
  return view;
}

const card = (name: string) => screen.getByRole('article', { name });

async function confirmWith(answer: 'Disconnect' | 'Cancel', question: string) {
  const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
  expect(dialog).toHaveTextContent(question);
  await userEvent.click(within(dialog).getByRole('button', { name: answer }));
}

async function setExpiry(connectionId: string, msFromNow: number) {
  const { error } = await serviceClient()
    .from('oauth_connections')
    .update({ expires_at: new Date(Date.now() + msFromNow).toISOString() })
    .eq('id', connectionId);
  if (error) throw new Error(error.message);
}

describe('OAuth Connections page', () => {
  it('shows one card per provider with name, category and description, and the security note', async () => {
    const org = await createOrganization();
    const member = await addMember(org, 'user');
    await openConnections(member);

    expect(screen.getAllByRole('article')).toHaveLength(10);
    const slack = card('Slack');
    expect(slack).toHaveTextContent('Communication');
    expect(slack).toHaveTextContent('Read channels and members, and post messages to your team.');
    expect(card('QuickBooks Online')).toHaveTextContent('Accounting');
    expect(screen.getByRole('heading', { name: 'About OAuth Security' })).toBeInTheDocument();
    expect(screen.getByText(/refreshed automatically/)).toBeInTheDocument();
    expect(screen.getByText(/revoke access at any time/)).toBeInTheDocument();

    // Nothing is set up yet: members cannot connect and are told whom to ask.
    expect(within(slack).getByRole('button', { name: 'Connect Slack' })).toBeDisabled();
    expect(slack).toHaveTextContent('Not set up yet. Ask a master admin to set up Slack.');
    expect(within(slack).queryByRole('button', { name: 'Settings for Slack' })).toBeNull();
  });

  it('lets a master admin set up a provider, with a write-only secret', async () => {
    const org = await createOrganization();
    await openConnections(org.masterAdmin);
    await userEvent.click(
      within(card('GitHub')).getByRole('button', { name: 'Settings for GitHub' }),
    );
    let dialog = screen.getByRole('dialog', { name: 'GitHub settings' });
    expect(within(dialog).getByText('Not set.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Redirect URL')).toHaveValue(
      `${window.location.origin}/oauth/callback/github`,
    );

    // The secret is required the first time; an address must be https, and on GitHub's own
    // hosts (the server says so: it alone knows which hosts the installation allows).
    await userEvent.type(within(dialog).getByLabelText('Client ID'), 'gh-client');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // Said under the field, which takes the focus.
    expect(within(dialog).getByLabelText('Client secret')).toHaveAccessibleDescription(
      /Client secret is required$/,
    );
    expect(within(dialog).getByLabelText('Client secret')).toHaveFocus();
    await userEvent.type(within(dialog).getByLabelText('Client secret'), 'gh-secret-value');
    await userEvent.type(
      within(dialog).getByLabelText('Token URL'),
      'http://github.example.com/login/oauth/access_token',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(
      () =>
        expect(within(dialog).getByRole('alert')).toHaveTextContent(
          'Token URL: The address must start with https://',
        ),
      SERVER,
    );
    await userEvent.clear(within(dialog).getByLabelText('Token URL'));
    await userEvent.click(within(dialog).getByLabelText('Token URL'));
    await userEvent.paste('https://github.example.com/login/oauth/access_token');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(
      () =>
        expect(within(dialog).getByRole('alert')).toHaveTextContent(
          'Token URL: The address must be on github.com, or on a host this installation allows',
        ),
      SERVER,
    );
    expect(
      (await serviceClient().from('oauth_configs').select('id').eq('client_id', 'gh-client')).data,
    ).toEqual([]);
    await userEvent.clear(within(dialog).getByLabelText('Token URL'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), SERVER);
    await waitFor(
      () =>
        expect(
          within(card('GitHub')).getByRole('button', { name: 'Connect GitHub' }),
        ).toBeEnabled(),
      SERVER,
    );

    // Reopened: "Set.", and the secret is nowhere in the form.
    await userEvent.click(
      within(card('GitHub')).getByRole('button', { name: 'Settings for GitHub' }),
    );
    dialog = screen.getByRole('dialog', { name: 'GitHub settings' });
    expect(within(dialog).getByText(/^Set\./)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Client secret')).toHaveValue('');
    expect(within(dialog).getByLabelText('Client ID')).toHaveValue('gh-client');
    expect(dialog.innerHTML).not.toContain('gh-secret-value');
  });

  it('shows a connection: Connected, its date, scopes and expiry; Disconnect asks first', async () => {
    const org = await createOrganization();
    await configureProvider(org, provider);
    const member = await addMember(org, 'user');
    await connectAs(member);
    await openConnections(member);

    const slack = card('Slack');
    await waitFor(() => expect(within(slack).getByText('Connected')).toBeInTheDocument(), SERVER);
    expect(within(slack).getByText('Connected on').nextElementSibling?.textContent).toMatch(
      /^[A-Z][a-z]{2} \d{2}, \d{4}$/,
    );
    expect(within(slack).getByTestId('connection-expiry').textContent).toMatch(EXPIRY);
    const scopes = within(within(slack).getByRole('list', { name: 'Scopes' })).getAllByRole(
      'listitem',
    );
    expect(scopes.map((item) => item.textContent)).toEqual([
      'channels:read',
      'chat:write',
      'users:read',
    ]);

    await userEvent.click(within(slack).getByRole('button', { name: 'Disconnect' }));
    await confirmWith('Cancel', 'Are you sure you want to disconnect Slack?');
    expect(within(card('Slack')).getByText('Connected')).toBeInTheDocument();

    await userEvent.click(within(card('Slack')).getByRole('button', { name: 'Disconnect' }));
    await confirmWith('Disconnect', 'Are you sure you want to disconnect Slack?');
    await waitFor(
      () =>
        expect(within(card('Slack')).getByRole('button', { name: 'Connect Slack' })).toBeEnabled(),
      SERVER,
    );
    expect(within(card('Slack')).queryByText('Connected')).toBeNull();
  });

  it('says "Failed to disconnect: …" when the disconnection fails', async () => {
    const org = await createOrganization();
    await configureProvider(org, provider);
    const member = await addMember(org, 'user');
    await connectAs(member);
    await openConnections(member);
    await waitFor(
      () => expect(within(card('Slack')).getByText('Connected')).toBeInTheDocument(),
      SERVER,
    );

    // Deactivated by an admin while the page is open: the server refuses the disconnection.
    const { error } = await org.masterAdmin.client.rpc('deactivate_user', {
      user_id: member.userId,
    });
    expect(error).toBeNull();
    await userEvent.click(within(card('Slack')).getByRole('button', { name: 'Disconnect' }));
    await confirmWith('Disconnect', 'Are you sure you want to disconnect Slack?');
    expect(await findNotice('Failed to disconnect: Connection not found')).toBeInTheDocument();
  });

  it('refreshes a connection that is about to expire when the page opens', async () => {
    const org = await createOrganization();
    await configureProvider(org, provider);
    const member = await addMember(org, 'user');
    const connectionId = await connectAs(member);
    await setExpiry(connectionId, 2 * 60_000);
    provider.reset();

    await openConnections(member);
    await waitFor(() => expect(provider.grants('refresh_token')).toHaveLength(1), SERVER);
    await waitFor(async () => {
      const { data } = await member.client
        .from('oauth_connections')
        .select('expires_at')
        .eq('id', connectionId)
        .single();
      expect(Date.parse(data!.expires_at!)).toBeGreaterThan(Date.now() + 50 * 60_000);
    }, SERVER);
    await waitFor(
      () => expect(within(card('Slack')).getByText('Connected')).toBeInTheDocument(),
      SERVER,
    );
  });

  it('shows a connection whose refresh failed as needing reconnection', async () => {
    const org = await createOrganization();
    await configureProvider(org, provider);
    const member = await addMember(org, 'user');
    const connectionId = await connectAs(member);
    await setExpiry(connectionId, 60_000);
    provider.answer = () => ({
      status: 400,
      statusText: 'Bad Request',
      body: { error: 'invalid_grant' },
    });

    await openConnections(member);
    const slack = card('Slack');
    await waitFor(
      () => expect(within(slack).getByText('Needs reconnection')).toBeInTheDocument(),
      SERVER,
    );
    expect(slack).toHaveTextContent(
      'This connection stopped working. Connect again to keep using Slack.',
    );
    expect(within(slack).getByRole('button', { name: 'Reconnect Slack' })).toBeEnabled();
    expect(within(slack).getByRole('button', { name: 'Disconnect' })).toBeEnabled();
    expect(provider.grants('refresh_token')).toHaveLength(1);
  });

  it('asks a user without an organisation to set one up', async () => {
    const loner = await signUpUser();
    renderApp({ client: loner.client, route: '/oauth' });
    expect(
      await screen.findByText(
        'Connections belong to an organization. Set up your organization first.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Set Up Organization' })).toHaveAttribute(
      'href',
      '/users',
    );
  });
});
