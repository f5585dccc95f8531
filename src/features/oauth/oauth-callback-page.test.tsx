import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addMember, createOrganization, type TestUser } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { configureProvider, MockProvider, startAuthorizationAs } from './testing/connect.ts';

// The page a provider sends the user back to, against the real backend and `oauth` function.
// msw only stands in for a network failure, which the real backend cannot produce.

const provider = new MockProvider();
const network = setupServer();
beforeAll(async () => {
  network.listen({ onUnhandledRequest: 'bypass' });
  await provider.start();
});
afterEach(() => network.resetHandlers());
afterAll(async () => {
  network.close();
  await provider.stop();
});
beforeEach(() => provider.reset());

let member: TestUser;
beforeAll(async () => {
  const org = await createOrganization();
  await configureProvider(org, provider);
  member = await addMember(org, 'user');
});

function remember(state: string, providerId = 'slack') {
  window.localStorage.setItem('oauth_state', state);
  window.localStorage.setItem('oauth_provider', providerId);
}

const open = (query: string, providerId = 'slack') =>
  renderApp({ client: member.client, route: `/oauth/callback/${providerId}?${query}` });

async function expectFailure(...texts: string[]) {
  expect(
    await screen.findByRole('heading', { name: 'Connection Failed' }, { timeout: 10_000 }),
  ).toBeInTheDocument();
  for (const text of texts) expect(screen.getByText(text)).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Return to Dashboard' })).toBeInTheDocument();
}

describe('OAuth callback page', () => {
  it('connects: loading, then success, stored values cleared, back to / after 2 seconds', async () => {
    const state = await startAuthorizationAs(member);
    remember(state);
    const { router } = open(`code=good-code&state=${state}`);
    expect(
      await screen.findByText('Connecting to Slack...', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('Connection Successful!', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Successfully connected to Slack')).toBeInTheDocument();
    expect(window.localStorage.getItem('oauth_state')).toBeNull();
    expect(window.localStorage.getItem('oauth_provider')).toBeNull();
    expect(provider.grants('authorization_code')).toHaveLength(1);
    expect(provider.calls[0]!.form.code).toBe('good-code');

    expect(router.state.location.pathname).toBe('/oauth/callback/slack');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'), { timeout: 8000 });
  });

  it('shows the provider’s error: OAuth error: {error}', async () => {
    const { router } = open('error=access_denied&state=whatever');
    await expectFailure('OAuth error: access_denied');
    await userEvent.click(screen.getByRole('button', { name: 'Return to Dashboard' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });

  it('needs code and state', async () => {
    remember('s1');
    open('state=s1');
    await expectFailure('Missing required OAuth parameters');
    expect(provider.calls).toHaveLength(0);
  });

  it('refuses a state this browser did not start, without asking the server', async () => {
    const state = await startAuthorizationAs(member);
    remember(state);
    open(`code=c&state=${state}x`);
    await expectFailure('Invalid OAuth state');
    // Still usable: the server never saw the forged one.
    expect(window.localStorage.getItem('oauth_state')).toBe(state);
  });

  it('refuses a provider other than the one started', async () => {
    const state = await startAuthorizationAs(member);
    remember(state, 'slack');
    open(`code=c&state=${state}`, 'github');
    await expectFailure('Invalid OAuth state');
  });

  it('shows the server’s refusal of a state it does not know', async () => {
    remember('forged-but-stored-state');
    open('code=c&state=forged-but-stored-state');
    await expectFailure('Invalid OAuth state');
    expect(provider.calls).toHaveLength(0);
  });

  it('shows a failed exchange: Failed to complete OAuth connection', async () => {
    provider.answer = () => ({
      status: 400,
      statusText: 'Bad Request',
      body: { error: 'invalid_grant' },
    });
    const state = await startAuthorizationAs(member);
    remember(state);
    open(`code=bad&state=${state}`);
    await expectFailure(
      'Failed to complete OAuth connection',
      'Token exchange failed: Bad Request',
    );
    expect(window.localStorage.getItem('oauth_state')).toBeNull();
  });

  it('shows OAuth callback failed when the request cannot be sent', async () => {
    network.use(http.post(/\/functions\/v1\/oauth$/, () => HttpResponse.error()));
    remember('s2');
    open('code=c&state=s2');
    await expectFailure('OAuth callback failed');
  });
});
