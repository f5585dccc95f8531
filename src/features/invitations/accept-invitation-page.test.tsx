import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createOrganization,
  newClient,
  serviceClient,
  signUpUser,
  TEST_PASSWORD,
  uniqueEmail,
  type TestOrganization,
} from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

// Only for the one answer the real backend cannot give: the lookup failing on the network.
const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

async function invite(
  org: TestOrganization,
  { email = uniqueEmail('invited'), role = 'admin' as 'user' | 'admin' } = {},
) {
  const { data, error } = await org.masterAdmin.client.rpc('invite_user', {
    email,
    role,
    full_name: '',
  });
  if (error) throw error;
  return { email, token: data.token! };
}

async function fillPasswords(password: string, confirmation = password) {
  await userEvent.type(screen.getByLabelText('Create Password'), password);
  await userEvent.type(screen.getByLabelText('Confirm Password'), confirmation);
}

const submitButton = () =>
  screen.getByRole('button', { name: 'Accept Invitation & Create Account' });

describe('the accept-invitation page', () => {
  it('shows who invites whom to which organisation, as what', async () => {
    const org = await createOrganization();
    await org.masterAdmin.client
      .from('user_profiles')
      .update({ full_name: 'Pastor John' })
      .eq('id', org.masterAdmin.userId);
    const { email, token } = await invite(org);
    renderApp({ route: `/invite/${token}` });

    expect(await screen.findByRole('heading', { name: `Join ${org.name}` })).toBeInTheDocument();
    expect(
      screen.getByText(`Pastor John has invited you to join ${org.name}.`),
    ).toBeInTheDocument();
    expect(screen.getByText(email)).toBeInTheDocument();
    expect(screen.getByText('Admin')).toBeInTheDocument();
    // Not inside the shell: no navigation, no sign-in form.
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('names the inviter by e-mail when they have no name', async () => {
    const org = await createOrganization();
    const { token } = await invite(org);
    renderApp({ route: `/invite/${token}` });
    expect(
      await screen.findByText(`${org.masterAdmin.email} has invited you to join ${org.name}.`),
    ).toBeInTheDocument();
  });

  it('checks the two passwords with the rules of section 5', async () => {
    const org = await createOrganization();
    const { token } = await invite(org);
    renderApp({ route: `/invite/${token}` });
    await screen.findByRole('heading', { name: `Join ${org.name}` });

    expect(submitButton()).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Create Password'), 'secret1');
    expect(submitButton()).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'secret2');
    expect(submitButton()).toBeEnabled();
    await userEvent.click(submitButton());
    // Under the field it is about, which takes the focus.
    expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription(
      'Passwords do not match',
    );
    expect(screen.getByLabelText('Confirm Password')).toHaveFocus();

    await userEvent.clear(screen.getByLabelText('Create Password'));
    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await fillPasswords('12345');
    await userEvent.click(submitButton());
    expect(screen.getByLabelText('Create Password')).toHaveAccessibleDescription(
      'Password must be at least 6 characters long',
    );
    expect(screen.queryByText('Passwords do not match')).toBeNull();

    // Both fields have their own show/hide toggle.
    const toggles = screen.getAllByRole('button', { name: 'Show password' });
    expect(toggles).toHaveLength(2);
    await userEvent.click(toggles[1]!);
    expect(screen.getByLabelText('Confirm Password')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Create Password')).toHaveAttribute('type', 'password');
  });

  it('creates the account with the invitation e-mail, joins, and goes to /', async () => {
    const org = await createOrganization();
    const { email, token } = await invite(org);
    const client = newClient();
    const { router } = renderApp({ client, route: `/invite/${token}` });
    await screen.findByRole('heading', { name: `Join ${org.name}` });
    await fillPasswords('a fine password');
    await userEvent.click(submitButton());

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const { data } = await client.auth.getUser();
    expect(data.user?.email).toBe(email);
    const profile = await client
      .from('user_profiles')
      .select('organization_id, role')
      .eq('id', data.user!.id)
      .single();
    expect(profile.data).toEqual({ organization_id: org.organizationId, role: 'admin' });
    // The shell shows the new member's role straight away.
    expect(
      await screen.findByRole('navigation', { name: 'Main' }, { timeout: 5000 }),
    ).toHaveTextContent('Admin');

    // The invitation is used up.
    const again = await newClient().rpc('get_invitation', { token });
    expect(again.error?.message).toBe('Invalid or expired invitation');
  });

  it('lets someone who already has an account join with its password', async () => {
    const org = await createOrganization();
    const existing = await signUpUser(uniqueEmail('existing'));
    const { token } = await invite(org, { email: existing.email, role: 'user' });
    const client = newClient();
    const { router } = renderApp({ client, route: `/invite/${token}` });
    await screen.findByRole('heading', { name: `Join ${org.name}` });

    await fillPasswords('not their password');
    await userEvent.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An account with this email already exists. Enter the password of that account to accept the invitation.',
    );

    await userEvent.clear(screen.getByLabelText('Create Password'));
    await userEvent.clear(screen.getByLabelText('Confirm Password'));
    await fillPasswords(TEST_PASSWORD);
    await userEvent.click(submitButton());
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const profile = await existing.client
      .from('user_profiles')
      .select('organization_id, role')
      .eq('id', existing.userId)
      .single();
    expect(profile.data).toEqual({ organization_id: org.organizationId, role: 'user' });
  });

  it('shows the acceptance error when the invitation was withdrawn meanwhile', async () => {
    const org = await createOrganization();
    const { email, token } = await invite(org);
    renderApp({ route: `/invite/${token}` });
    await screen.findByRole('heading', { name: `Join ${org.name}` });
    const { data } = await org.masterAdmin.client
      .from('user_invitations')
      .select('id')
      .eq('email', email)
      .single();
    await org.masterAdmin.client.rpc('cancel_invitation', { invitation_id: data!.id });

    await fillPasswords('a fine password');
    await userEvent.click(submitButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid or expired invitation');
  });
});

describe('the accept-invitation page where sign-up is closed', () => {
  /** An organisation on the backend whose sign-up is closed; its admin made by an operator. */
  async function closedOrganization() {
    const email = uniqueEmail('closed-admin');
    const created = await serviceClient('closedSignUpBackend').auth.admin.createUser({
      email,
      password: TEST_PASSWORD,
      email_confirm: true,
    });
    if (created.error) throw created.error;
    const admin = newClient('closedSignUpBackend');
    const signedIn = await admin.auth.signInWithPassword({ email, password: TEST_PASSWORD });
    if (signedIn.error) throw signedIn.error;
    const name = `Closed Chapel ${uniqueEmail('org')}`;
    const { data, error } = await admin.rpc('create_organization' as never, { name } as never);
    if (error) throw new Error(error.message);
    return { name, organizationId: (data as { id: string }).id, admin };
  }

  it("creates the invited person's account, joins, and goes to /", async () => {
    const org = await closedOrganization();
    const email = uniqueEmail('invited');
    const invited = await org.admin.rpc('invite_user', { email, role: 'user', full_name: '' });
    if (invited.error) throw invited.error;
    const token = invited.data.token!;
    // Anyone else is turned away.
    const stranger = await newClient('closedSignUpBackend').auth.signUp({
      email: uniqueEmail('stranger'),
      password: TEST_PASSWORD,
    });
    expect(stranger.error?.code).toBe('signup_disabled');

    const client = newClient('closedSignUpBackend');
    const { router } = renderApp({ client, route: `/invite/${token}` });
    await screen.findByRole('heading', { name: `Join ${org.name}` });
    await fillPasswords('a fine password');
    await userEvent.click(submitButton());

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const { data } = await client.auth.getUser();
    expect(data.user?.email).toBe(email);
    const profile = await client
      .from('user_profiles')
      .select('organization_id, role')
      .eq('id', data.user!.id)
      .single();
    expect(profile.data).toEqual({ organization_id: org.organizationId, role: 'user' });
  });
});

describe('an invitation that cannot be used', () => {
  async function expectInvalid(route: string, message: string) {
    const { router } = renderApp({ route });
    expect(await screen.findByRole('heading', { name: 'Invalid Invitation' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    await userEvent.click(screen.getByRole('button', { name: 'Go to Login' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Steward' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  }

  it('unknown token', async () => {
    await expectInvalid('/invite/not-a-real-token', 'Invalid or expired invitation');
  });

  it('used token', async () => {
    const org = await createOrganization();
    const { email, token } = await invite(org);
    const person = await signUpUser(email);
    await person.client.rpc('accept_invitation', { token });
    await expectInvalid(`/invite/${token}`, 'Invalid or expired invitation');
  });

  it('expired token', async () => {
    const org = await createOrganization();
    const { email, token } = await invite(org);
    // Arranged with the service key: seven days have passed.
    const { error } = await serviceClient()
      .from('user_invitations')
      .update({ expires_at: new Date(Date.now() - 60_000).toISOString() })
      .eq('email', email);
    expect(error).toBeNull();
    await expectInvalid(`/invite/${token}`, 'Invalid or expired invitation');
  });

  it('missing token', async () => {
    await expectInvalid('/invite/', 'Invalid invitation link');
  });

  it('lookup failure', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    network.use(http.post(/\/rest\/v1\/rpc\/get_invitation$/, () => HttpResponse.error()));
    const org = await createOrganization();
    const { token } = await invite(org);
    await expectInvalid(`/invite/${token}`, 'Failed to load invitation');
    expect(logged).toHaveBeenCalledWith('Failed to load invitation', expect.anything());
    logged.mockRestore();
  });
});
