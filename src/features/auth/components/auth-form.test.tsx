import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  newClient,
  serviceClient,
  signUpUser,
  TEST_PASSWORD,
  uniqueEmail,
} from '../../../testing/backend.ts';
import { renderApp } from '../../../testing/render.tsx';
import { watchBusyButton } from '../../../testing/busy-label.ts';
import { INVITATION_ONLY } from './auth-form.tsx';
import { CANNOT_SEND_RESET_LINK, RESET_LINK_SENT } from './forgot-password-form.tsx';
import { SIGN_UP_CONFIRM } from '../hooks/use-auth-form.ts';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

// Only for an answer the test backend cannot give (it has no SMTP, so it never asks new
// accounts to confirm their address); everything else goes to the real backend.
const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

async function openSignedOut(route = '/users') {
  const view = renderApp({ route });
  await screen.findByRole('heading', { name: 'Sign in to Steward' });
  return view;
}

describe('the sign-in form', () => {
  it('shows both modes with their texts, toggled by a link', async () => {
    const user = userEvent.setup();
    await openSignedOut();
    expect(screen.getByText('Access your document management system')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveAttribute('type', 'submit');
    // The link appears once the server has said that sign-up is open.
    expect(await screen.findByText(/Don't have an account\?/)).toHaveTextContent(
      "Don't have an account? Sign up",
    );
    expect(screen.queryByText(INVITATION_ONLY)).not.toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Sign up' }));
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    expect(screen.getByText('Join your organization')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create account' })).toHaveAttribute(
      'type',
      'submit',
    );
    expect(screen.getByText(/Already have an account\?/)).toHaveTextContent(
      'Already have an account? Sign in',
    );

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByRole('heading', { name: 'Sign in to Steward' })).toBeInTheDocument();
  });

  it('masks the password with a show/hide toggle', async () => {
    const user = userEvent.setup();
    await openSignedOut();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('shows a wrong password as "Invalid email or password" in a red box, and logs it', async () => {
    const user = userEvent.setup();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { email } = await signUpUser();
    await openSignedOut();
    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), 'not the password');
    const busy = await watchBusyButton('Signing in...', () =>
      user.click(screen.getByRole('button', { name: 'Sign in' })),
    );
    expect(busy).toEqual({ seen: true, alwaysDisabled: true });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid email or password');
    // The red box: the theme's danger tone.
    expect(alert).toHaveAttribute('data-tone', 'danger');
    // The error box sits above the fields.
    expect(
      alert.compareDocumentPosition(screen.getByLabelText('Email address')) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(logged).toHaveBeenCalledWith('Authentication error', expect.anything());
    logged.mockRestore();
  });

  it('signs in and shows the page that was asked for, at the same address', async () => {
    const user = userEvent.setup();
    const { email } = await signUpUser();
    const { router } = await openSignedOut('/users');
    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), TEST_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    // /users for someone without an organisation is the organisation set-up screen.
    expect(
      await screen.findByRole('heading', { name: 'Set up your organization' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/users');
  });

  it('creates an account, says so, and is back in sign-in mode with the e-mail kept', async () => {
    const user = userEvent.setup();
    const email = uniqueEmail('new');
    const client = newClient();
    renderApp({ client, route: '/users' });
    await screen.findByRole('heading', { name: 'Sign in to Steward' });
    await user.click(await screen.findByRole('button', { name: 'Sign up' }));
    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), TEST_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    // A passing notice with the specification's text; nobody is signed in.
    const notices = screen.getByRole('log', { name: 'Notifications' });
    expect(
      await within(notices).findByText('Account created successfully! You can now sign in.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sign in to Steward' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toHaveValue(email);
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveFocus();
    expect((await client.auth.getSession()).data.session).toBeNull();

    // The new account signs in with the password just chosen.
    await user.type(screen.getByLabelText('Password'), TEST_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(
      await screen.findByRole('heading', { name: 'Set up your organization' }),
    ).toBeInTheDocument();
    expect(screen.getAllByText(email).length).toBeGreaterThan(0);
  });

  it('asks to confirm the address when the server sends a confirmation link', async () => {
    const user = userEvent.setup();
    const email = uniqueEmail('confirm');
    // GoTrue's answer with confirmations on: the new user alone, no session.
    network.use(
      http.post(/\/auth\/v1\/signup/, () =>
        HttpResponse.json({
          id: '6a3c2a9e-9a5e-4b5e-8f0e-2f1d3c4b5a69',
          aud: 'authenticated',
          role: 'authenticated',
          email,
          phone: '',
          confirmation_sent_at: new Date().toISOString(),
          app_metadata: { provider: 'email', providers: ['email'] },
          user_metadata: {},
          identities: [],
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
          is_anonymous: false,
        }),
      ),
    );
    renderApp({ client: newClient(), route: '/' });
    await screen.findByRole('heading', { name: 'Sign in to Steward' });
    await user.click(await screen.findByRole('button', { name: 'Sign up' }));
    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), TEST_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const notices = screen.getByRole('log', { name: 'Notifications' });
    expect(await within(notices).findByText(SIGN_UP_CONFIRM)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sign in to Steward' })).toBeInTheDocument();
  });

  it('says "An account with this email already exists" on a second sign-up', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { email } = await signUpUser();
    await openSignedOut();
    await user.click(await screen.findByRole('button', { name: 'Sign up' }));
    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), TEST_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'An account with this email already exists',
    );
    // Still in sign-up mode: nothing was created.
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    vi.mocked(console.error).mockRestore();
  });

  it("shows other errors in the backend's own words, and clears them on switching mode", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await openSignedOut();
    await user.click(await screen.findByRole('button', { name: 'Sign up' }));
    await user.type(screen.getByLabelText('Email address'), uniqueEmail('short'));
    await user.type(screen.getByLabelText('Password'), '123');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/password/i);
    expect(alert).not.toHaveTextContent('An error occurred');

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    vi.mocked(console.error).mockRestore();
  });
});

describe('the sign-in form where sign-up is closed', () => {
  it('offers no sign-up, says how to get an invitation, and still signs members in', async () => {
    const user = userEvent.setup();
    // Nobody can sign up here: the member was made by an operator with the admin API.
    const email = uniqueEmail('member');
    const created = await serviceClient('closedSignUpBackend').auth.admin.createUser({
      email,
      password: TEST_PASSWORD,
      email_confirm: true,
    });
    if (created.error) throw created.error;

    renderApp({ client: newClient('closedSignUpBackend'), route: '/users' });
    await screen.findByRole('heading', { name: 'Sign in to Steward' });
    expect(await screen.findByText(INVITATION_ONLY)).toBeInTheDocument();
    expect(screen.queryByText(/Don't have an account\?/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign up' })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Email address'), email);
    await user.type(screen.getByLabelText('Password'), TEST_PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(
      await screen.findByRole('heading', { name: 'Set up your organization' }),
    ).toBeInTheDocument();
  });
});

describe('forgotten passwords', () => {
  it('says this installation cannot send e-mail and to ask an administrator, and goes back to sign in', async () => {
    const user = userEvent.setup();
    const member = await signUpUser();
    await openSignedOut();
    await user.type(screen.getByLabelText('Email address'), member.email);
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    // The test backend has no SMTP: no link would arrive, so none is offered, and nothing says "sent".
    expect(await screen.findByRole('status')).toHaveTextContent(CANNOT_SEND_RESET_LINK);
    expect(screen.queryByRole('button', { name: 'Send reset link' })).not.toBeInTheDocument();
    expect(screen.queryByText(/we have sent/i)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(screen.getByRole('heading', { name: 'Sign in to Steward' })).toBeInTheDocument();
  });

  it("shows the server's refusal, such as the limit of one e-mail a minute per address", async () => {
    // An installation that sends e-mail (the test backend has no SMTP; GoTrue answers alike).
    network.use(http.post(/\/rest\/v1\/rpc\/mail_delivery/, () => HttpResponse.json('smtp')));
    const user = userEvent.setup();
    const email = uniqueEmail('forgetful');
    await openSignedOut();
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    await user.type(screen.getByLabelText('Email address'), email);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(RESET_LINK_SENT);
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    await user.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), email);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(
      await screen.findByText(
        /For security purposes, you can only request this after \d+ seconds\./,
      ),
    ).toBeInTheDocument();
  });
});
