import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOrganization, newClient, uniqueEmail } from '../../../testing/backend.ts';
import { findNotice } from '../../../testing/notices.ts';
import { renderApp } from '../../../testing/render.tsx';
import { INVITATION_NOT_EMAILED } from './invite-dialog.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

// Only for answers the test backend cannot give (it has no SMTP, so it never counts e-mail
// against a limit); everything else goes to the real backend. The server's side of these
// answers is tested in tests/backend/mail-limits.test.ts.
const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

async function openDialog() {
  const user = userEvent.setup();
  const org = await createOrganization();
  renderApp({ client: org.masterAdmin.client, route: '/users' });
  await user.click(await screen.findByRole('button', { name: 'Invite User' }));
  const dialog = screen.getByRole('dialog', { name: 'Invite User' });
  return { user, org, dialog };
}

async function sendInvitation(
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  email: string,
) {
  await user.type(within(dialog).getByLabelText('Email address'), email);
  await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
  // The test backend has no SMTP: an e-mailed invitation is only created, and says so.
  await within(dialog).findByText(
    /^Invitation (sent successfully!|created\. It was not e-mailed\.)$/,
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the invite dialog', () => {
  it('has the fields, help text and the organisation it invites to', async () => {
    const { org, dialog } = await openDialog();
    expect(within(dialog).getByLabelText('Email address')).toBeRequired();
    expect(within(dialog).getByLabelText('Email address')).toHaveAttribute('type', 'email');
    expect(within(dialog).getByLabelText('Full name (optional)')).not.toBeRequired();
    const role = within(dialog).getByLabelText('Role');
    expect(role).toHaveValue('user');
    expect(
      within(role)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['User', 'Admin', 'Viewer']);
    expect(
      within(dialog).getByText(
        'Users can view and manage documents. Admins can also invite and manage other users. Viewers can only view and download documents.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(/will join/)).toHaveTextContent(
      `The invited user will join ${org.name}.`,
    );
  });

  it('e-mails the invitation too, and says it was placed in the Outbox when delivery is not set up', async () => {
    const { user, org, dialog } = await openDialog();
    const email = uniqueEmail('emailed');
    expect(within(dialog).getByLabelText('Send invitation by e-mail')).toBeChecked();
    await sendInvitation(user, dialog, email);
    // Nothing says "sent" for an e-mail that stays here.
    expect(within(dialog).getByRole('status')).toHaveTextContent(INVITATION_NOT_EMAILED);
    expect(within(dialog).getByText(/kept in the Outbox/)).toHaveTextContent(
      'E-mail is not set up on this installation: the invitation e-mail is kept in the Outbox and was not sent. Copy the link and send it to them yourself.',
    );
    expect(within(dialog).queryByText(/sent successfully/)).not.toBeInTheDocument();
    const { data } = await org.masterAdmin.client
      .from('outbox_messages')
      .select('kind, recipients, status')
      .eq('kind', 'invitation');
    expect(data).toEqual([
      { kind: 'invitation', recipients: [email.toLowerCase()], status: 'outbox' },
    ]);
  });

  it('invites without e-mail when the box is cleared', async () => {
    const { user, org, dialog } = await openDialog();
    await user.click(within(dialog).getByLabelText('Send invitation by e-mail'));
    await sendInvitation(user, dialog, uniqueEmail('link-only'));
    expect(within(dialog).queryByText(/kept in the Outbox/)).not.toBeInTheDocument();
    // Not e-mailed at all: the specification's words, the link to share.
    expect(within(dialog).getByRole('status')).toHaveTextContent('Invitation sent successfully!');
    const { data } = await org.masterAdmin.client.from('outbox_messages').select('id');
    expect(data).toEqual([]);
  });

  it('sends the invitation and shows a working {origin}/invite/{token} link', async () => {
    const { user, dialog } = await openDialog();
    const email = uniqueEmail('colleague');
    await user.type(within(dialog).getByLabelText('Full name (optional)'), 'Naomi Reed');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'admin');
    await sendInvitation(user, dialog, email);

    expect(within(dialog).getByText(email)).toBeInTheDocument();
    const link = within(dialog).getByLabelText('Invitation link');
    const value = (link as HTMLInputElement).value;
    const prefix = `${window.location.origin}/invite/`;
    expect(value.startsWith(prefix)).toBe(true);
    const { data, error } = await newClient().rpc('get_invitation', {
      token: value.slice(prefix.length),
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ email, role: 'admin', full_name: 'Naomi Reed' });

    // Done closes the dialog; the invitation is listed behind it.
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Pending Invitations' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: new RegExp(email) })).toBeInTheDocument();
  });

  it('copies the link, says Copied! for 2 seconds', async () => {
    const { user, dialog } = await openDialog();
    await sendInvitation(user, dialog, uniqueEmail('colleague'));
    const link = (within(dialog).getByLabelText('Invitation link') as HTMLInputElement).value;

    await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe(link);
    expect(within(dialog).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await waitFor(
      () => expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeInTheDocument(),
      { timeout: 3000 },
    );
  });

  it('falls back to selecting the link and the copy command without the Clipboard API', async () => {
    const { user, dialog } = await openDialog();
    await sendInvitation(user, dialog, uniqueEmail('colleague'));
    const input = within(dialog).getByLabelText('Invitation link') as HTMLInputElement;
    // A plain-http origin has no navigator.clipboard.
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const execCommand = vi.fn(() => true);
    document.execCommand = execCommand;
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
      expect(execCommand).toHaveBeenCalledWith('copy');
      expect(input.selectionStart).toBe(0);
      expect(input.selectionEnd).toBe(input.value.length);
      expect(within(dialog).getByRole('button', { name: 'Copied!' })).toBeInTheDocument();

      // When even that is refused, the user is told how to copy the selected link.
      execCommand.mockReturnValue(false);
      await waitFor(
        () => expect(within(dialog).getByRole('button', { name: 'Copy link' })).toBeVisible(),
        { timeout: 3000 },
      );
      await user.click(within(dialog).getByRole('button', { name: 'Copy link' }));
      expect(within(dialog).getByText(/press Ctrl\+C/)).toBeInTheDocument();
    } finally {
      Reflect.deleteProperty(document, 'execCommand');
    }
  });

  it('says "Failed to send invitation: …" and keeps the form', async () => {
    const { user, org, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Email address'), org.masterAdmin.email);
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(
      await findNotice('Failed to send invitation: User is already a member of this organization'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email address')).toHaveValue(org.masterAdmin.email);
  });

  it("shows the server's e-mail limit, and that the invitation can still go without e-mail", async () => {
    const { user, dialog } = await openDialog();
    const limit =
      "Your organization has reached its limit of 20 e-mail recipients an hour (a new organization's limit, for its first days). Please try again in 3 minutes.";
    network.use(
      http.post(/\/rest\/v1\/rpc\/invite_user_by_email$/, () =>
        HttpResponse.json(
          { code: 'PT429', message: limit, details: null, hint: null },
          { status: 429 },
        ),
      ),
    );
    const email = uniqueEmail('limited');
    await user.type(within(dialog).getByLabelText('Email address'), email);
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(
      await findNotice(
        `Failed to send invitation: ${limit} You can still invite without e-mail and share the link yourself.`,
      ),
    ).toBeInTheDocument();

    // Without e-mail it goes through, with its link.
    await user.click(within(dialog).getByLabelText('Send invitation by e-mail'));
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    await within(dialog).findByText('Invitation sent successfully!');
    const link = within(dialog).getByLabelText('Invitation link') as HTMLInputElement;
    expect(link.value).toMatch(/\/invite\/[0-9a-f]{64}$/);
  });

  it('says when an invitation was not e-mailed again because one went out a short while ago', async () => {
    const { user, dialog } = await openDialog();
    const email = uniqueEmail('again');
    const token = 'a'.repeat(64);
    network.use(
      http.post(/\/rest\/v1\/rpc\/invite_user_by_email$/, () =>
        HttpResponse.json({
          id: crypto.randomUUID(),
          email,
          token,
          mail_id: crypto.randomUUID(),
          mail_status: 'recently_sent',
        }),
      ),
    );
    await sendInvitation(user, dialog, email);
    expect(within(dialog).getByText(/not e-mailed again/)).toHaveTextContent(
      'An invitation was e-mailed to them a short while ago, so it was not e-mailed again, and the link in that e-mail no longer works. Share this new link yourself.',
    );
    expect(within(dialog).queryByText(/also being e-mailed/)).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('Invitation link')).toHaveValue(
      `${window.location.origin}/invite/${token}`,
    );
  });

  it('says before sending that inviting an address again replaces the link sent earlier', async () => {
    const user = userEvent.setup();
    const org = await createOrganization();
    const earlier = uniqueEmail('again');
    const first = await org.masterAdmin.client.rpc('invite_user', {
      email: earlier,
      role: 'user',
      full_name: '',
    });
    expect(first.error).toBeNull();
    renderApp({ client: org.masterAdmin.client, route: '/users' });
    await user.click(await screen.findByRole('button', { name: 'Invite User' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite User' });
    const warning = /already has a pending invitation/;

    await user.type(within(dialog).getByLabelText('Email address'), uniqueEmail('new'));
    expect(within(dialog).queryByText(warning)).not.toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText('Email address'));
    await user.type(within(dialog).getByLabelText('Email address'), ` ${earlier.toUpperCase()}`);
    const text = within(dialog).getByText(warning).textContent;
    expect(text).toContain(`${earlier} already has a pending invitation, sent `);
    expect(text).toMatch(
      /, sent [A-Z][a-z]{2} \d{2}, \d{4}\. Sending a new one replaces it: the link sent earlier will stop working\.$/,
    );

    // Sent anyway: the earlier link no longer opens the invitation, the new one does.
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    await within(dialog).findByText(INVITATION_NOT_EMAILED);
    expect(
      (await newClient().rpc('get_invitation', { token: first.data!.token! })).error?.message,
    ).toBe('Invalid or expired invitation');
  });

  it('asks before the page is left with an invitation typed but not sent', async () => {
    const user = userEvent.setup();
    const org = await createOrganization();
    const { router } = renderApp({ client: org.masterAdmin.client, route: '/users' });
    await user.click(await screen.findByRole('button', { name: 'Invite User' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite User' });
    await user.type(within(dialog).getByLabelText('Full name (optional)'), 'Naomi Reed');
    const nav = screen.getByRole('navigation', { name: 'Main' });

    await user.click(within(nav).getAllByRole('link', { name: 'Documents' })[0]!);
    let question = await screen.findByRole('dialog', { name: 'Leave this page?' });
    expect(question).toHaveTextContent('Your invitation has not been sent.');
    await user.click(within(question).getByRole('button', { name: 'Stay' }));
    expect(router.state.location.pathname).toBe('/users');
    expect(within(dialog).getByLabelText('Full name (optional)')).toHaveValue('Naomi Reed');

    await user.click(within(nav).getAllByRole('link', { name: 'Documents' })[0]!);
    question = await screen.findByRole('dialog', { name: 'Leave this page?' });
    await user.click(within(question).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/documents'));
  });

  it('starts from a clean form after closing', async () => {
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByLabelText('Email address'), 'someone@example.test');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'admin');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    const reopened = screen.getByRole('dialog', { name: 'Invite User' });
    expect(within(reopened).getByLabelText('Email address')).toHaveValue('');
    expect(within(reopened).getByLabelText('Role')).toHaveValue('user');

    // And after a sent invitation, closing with Escape starts over with the form too.
    await sendInvitation(user, reopened, uniqueEmail('colleague'));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    expect(
      within(screen.getByRole('dialog', { name: 'Invite User' })).getByLabelText('Email address'),
    ).toHaveValue('');
  });
});
