import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addMember,
  createOrganization,
  newClient,
  serviceClient,
  uniqueEmail,
  type TestOrganization,
  type TestUser,
} from '../../testing/backend.ts';
import { findNotice } from '../../testing/notices.ts';
import { renderApp } from '../../testing/render.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

// Only for answers the real backend cannot give (a failed listing, an error without a message);
// everything else goes to the real backend.
const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

async function openUsersPage(as: TestUser) {
  const view = renderApp({ client: as.client, route: '/users' });
  await screen.findByRole('heading', { name: 'User Management' });
  return view;
}

const membersTable = () => screen.getByRole('table', { name: 'Members of your organization' });
const rowOf = (email: string) => screen.getByRole('row', { name: new RegExp(email) });
const statValue = (label: string) => screen.getByText(label).nextElementSibling?.textContent;

async function invite(org: TestOrganization, inviter: TestUser, role: 'user' | 'admin' = 'user') {
  const email = uniqueEmail('invited');
  const { data, error } = await inviter.client.rpc('invite_user', {
    email,
    role,
    full_name: '',
  });
  if (error) throw error;
  return { email, token: data.token!, org };
}

async function confirmWith(answer: string, question: string) {
  const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
  expect(dialog).toHaveTextContent(question);
  await userEvent.click(within(dialog).getByRole('button', { name: answer }));
  await waitFor(() => expect(dialog).not.toBeInTheDocument());
}

/** The notice of an action's outcome; nothing opens over the page to say it. */
async function expectNotice(text: string) {
  expect(await findNotice(text)).toBeInTheDocument();
  expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
}

describe('User Management', () => {
  it('shows a skeleton while loading, then the four counts', async () => {
    const org = await createOrganization();
    await addMember(org, 'admin');
    const user = await addMember(org, 'user');
    await org.masterAdmin.client.rpc('deactivate_user', { user_id: user.userId });
    await invite(org, org.masterAdmin);

    renderApp({ client: org.masterAdmin.client, route: '/users' });
    expect(await screen.findByRole('status', { name: 'Loading users' })).toBeInTheDocument();
    await screen.findByRole('heading', { name: 'User Management' });
    expect(statValue('Total Users')).toBe('3');
    expect(statValue('Active Users')).toBe('2');
    expect(statValue('Admins')).toBe('2');
    expect(statValue('Pending Invites')).toBe('1');
  });

  it('restricts access for members who are not admins', async () => {
    const org = await createOrganization();
    const member = await addMember(org, 'user');
    renderApp({ client: member.client, route: '/users' });
    expect(await screen.findByRole('heading', { name: 'Access Restricted' })).toBeInTheDocument();
    expect(
      screen.getByText('You need admin privileges to access user management.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('lists members with No name set, Never and dates as MMM dd, yyyy', async () => {
    const org = await createOrganization();
    const named = await addMember(org, 'user', 'Ruth Miller');
    const unnamed = await addMember(org, 'user');
    const service = serviceClient();
    await service
      .from('user_profiles')
      .update({ last_login: null, created_at: '2026-03-05T12:00:00Z' })
      .eq('id', unnamed.userId);
    await service
      .from('user_profiles')
      .update({ last_login: '2026-01-09T12:00:00Z' })
      .eq('id', named.userId);

    await openUsersPage(org.masterAdmin);
    const headers = within(membersTable())
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['User', 'Role', 'Status', 'Last Login', 'Joined', 'Actions']);

    const unnamedRow = rowOf(unnamed.email);
    expect(within(unnamedRow).getByText('No name set')).toBeInTheDocument();
    expect(within(unnamedRow).getByText('Never')).toBeInTheDocument();
    expect(within(unnamedRow).getByText('Mar 05, 2026')).toBeInTheDocument();
    expect(within(unnamedRow).getByText('Active')).toBeInTheDocument();
    const namedRow = rowOf(named.email);
    expect(within(namedRow).getByText('Ruth Miller')).toBeInTheDocument();
    expect(within(namedRow).getByText('Jan 09, 2026')).toBeInTheDocument();
  });

  it("gives master admins a role select on other members' rows only", async () => {
    const org = await createOrganization();
    const admin = await addMember(org, 'admin');
    const member = await addMember(org, 'user');
    await openUsersPage(org.masterAdmin);

    const own = rowOf(org.masterAdmin.email);
    expect(within(own).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(own).getByText('Master Admin')).toBeInTheDocument();
    expect(within(own).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rowOf(admin.email)).getByRole('combobox')).toHaveValue('admin');
    expect(within(rowOf(member.email)).getByRole('combobox')).toHaveValue('user');
    expect(
      within(rowOf(member.email)).getByRole('button', { name: /Deactivate/ }),
    ).toBeInTheDocument();
  });

  it('gives admins no role select, and no actions on themselves or the master admin', async () => {
    const org = await createOrganization();
    const admin = await addMember(org, 'admin');
    const otherAdmin = await addMember(org, 'admin');
    const member = await addMember(org, 'user');
    await openUsersPage(admin);

    expect(within(membersTable()).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(rowOf(org.masterAdmin.email)).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rowOf(admin.email)).queryByRole('button')).not.toBeInTheDocument();
    expect(
      within(rowOf(otherAdmin.email)).getByRole('button', { name: /Deactivate/ }),
    ).toBeInTheDocument();
    expect(
      within(rowOf(member.email)).getByRole('button', { name: /Deactivate/ }),
    ).toBeInTheDocument();
  });

  it('changes a role between User and Admin', async () => {
    const user = userEvent.setup();
    const org = await createOrganization();
    const member = await addMember(org, 'user');
    await openUsersPage(org.masterAdmin);
    expect(statValue('Admins')).toBe('1');

    await user.selectOptions(within(rowOf(member.email)).getByRole('combobox'), 'admin');
    await waitFor(() => expect(statValue('Admins')).toBe('2'));
    const { data } = await member.client
      .from('user_profiles')
      .select('role')
      .eq('id', member.userId)
      .single();
    expect(data?.role).toBe('admin');
  });

  it('deactivates after confirmation, and reactivates', async () => {
    const org = await createOrganization();
    const member = await addMember(org, 'user');
    await openUsersPage(org.masterAdmin);

    await userEvent.click(within(rowOf(member.email)).getByRole('button', { name: /Deactivate/ }));
    await confirmWith('Cancel', 'Are you sure you want to deactivate this user?');
    expect(within(rowOf(member.email)).getByText('Active')).toBeInTheDocument();

    await userEvent.click(within(rowOf(member.email)).getByRole('button', { name: /Deactivate/ }));
    await confirmWith('Deactivate', 'Are you sure you want to deactivate this user?');
    await waitFor(() =>
      expect(within(rowOf(member.email)).getByText('Inactive')).toBeInTheDocument(),
    );
    expect(statValue('Active Users')).toBe('1');
    // The member now reads nothing of the organisation.
    const deactivated = await member.client.from('organizations').select('id');
    expect(deactivated.data).toEqual([]);

    await userEvent.click(within(rowOf(member.email)).getByRole('button', { name: /Reactivate/ }));
    await waitFor(() =>
      expect(within(rowOf(member.email)).getByText('Active')).toBeInTheDocument(),
    );
    const restored = await member.client.from('organizations').select('id');
    expect(restored.data).toEqual([{ id: org.organizationId }]);
  });

  it('says why when an action is refused', async () => {
    const org = await createOrganization();
    const admin = await addMember(org, 'admin');
    const member = await addMember(org, 'user');
    const inactive = await addMember(org, 'user');
    await org.masterAdmin.client.rpc('deactivate_user', { user_id: inactive.userId });
    await openUsersPage(admin);
    // Meanwhile the master admin takes the admin's rights away.
    await org.masterAdmin.client.rpc('update_user_role', {
      user_id: admin.userId,
      new_role: 'user',
    });

    await userEvent.click(within(rowOf(member.email)).getByRole('button', { name: /Deactivate/ }));
    await confirmWith('Deactivate', 'Are you sure you want to deactivate this user?');
    await expectNotice('Failed to deactivate user: Insufficient permissions to deactivate users');

    await userEvent.click(
      within(rowOf(inactive.email)).getByRole('button', { name: /Reactivate/ }),
    );
    await expectNotice('Failed to reactivate user: Insufficient permissions to reactivate users');
  });

  it('says "Failed to update user role: …" when the member is gone', async () => {
    const org = await createOrganization();
    const member = await addMember(org, 'user');
    await openUsersPage(org.masterAdmin);
    await serviceClient().from('user_profiles').delete().eq('id', member.userId);

    await userEvent.selectOptions(within(rowOf(member.email)).getByRole('combobox'), 'admin');
    await expectNotice('Failed to update user role: User not found');
  });

  it('shows "Error: {message}" when the members cannot be loaded', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const org = await createOrganization();
    network.use(
      http.get(/\/rest\/v1\/user_profiles/, ({ request }) =>
        new URL(request.url).searchParams.has('organization_id')
          ? HttpResponse.json({ message: 'upstream unavailable' }, { status: 500 })
          : undefined,
      ),
    );
    renderApp({ client: org.masterAdmin.client, route: '/users' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error: Failed to fetch users');
    expect(logged).toHaveBeenCalledWith('Failed to fetch users', expect.anything());
    logged.mockRestore();
  });
});

describe('Pending Invitations', () => {
  it('is hidden while there are none', async () => {
    const org = await createOrganization();
    await openUsersPage(org.masterAdmin);
    expect(screen.queryByRole('heading', { name: 'Pending Invitations' })).not.toBeInTheDocument();
    expect(statValue('Pending Invites')).toBe('0');
  });

  it('lists them with Invited By falling back from name to e-mail to Unknown', async () => {
    const org = await createOrganization();
    await org.masterAdmin.client
      .from('user_profiles')
      .update({ full_name: 'Pastor John' })
      .eq('id', org.masterAdmin.userId);
    const admin = await addMember(org, 'admin');
    const leaver = await addMember(org, 'admin');
    const byName = await invite(org, org.masterAdmin, 'admin');
    const byEmail = await invite(org, admin);
    const byNobody = await invite(org, leaver);
    await serviceClient().from('user_profiles').delete().eq('id', leaver.userId);

    await openUsersPage(org.masterAdmin);
    const table = screen.getByRole('heading', { name: 'Pending Invitations' })
      .nextElementSibling as HTMLElement;
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Email', 'Role', 'Invited By', 'Sent', 'Expires', 'Actions']);
    expect(within(rowOf(byName.email)).getByText('Pastor John')).toBeInTheDocument();
    expect(within(rowOf(byName.email)).getByText('Admin')).toBeInTheDocument();
    expect(within(rowOf(byEmail.email)).getByText(admin.email)).toBeInTheDocument();
    expect(within(rowOf(byNobody.email)).getByText('Unknown')).toBeInTheDocument();
    expect(statValue('Pending Invites')).toBe('3');
  });

  it('cancels an invitation after confirmation', async () => {
    const org = await createOrganization();
    const pending = await invite(org, org.masterAdmin);
    await openUsersPage(org.masterAdmin);

    await userEvent.click(within(rowOf(pending.email)).getByRole('button', { name: /Cancel/ }));
    await confirmWith('Keep invitation', 'Are you sure you want to cancel this invitation?');
    expect(rowOf(pending.email)).toBeInTheDocument();

    await userEvent.click(within(rowOf(pending.email)).getByRole('button', { name: /Cancel/ }));
    await confirmWith('Cancel invitation', 'Are you sure you want to cancel this invitation?');
    await waitFor(() =>
      expect(
        screen.queryByRole('heading', { name: 'Pending Invitations' }),
      ).not.toBeInTheDocument(),
    );
    const lookup = await serviceClient().rpc('get_invitation', { token: pending.token });
    expect(lookup.error?.message).toBe('Invalid or expired invitation');
  });

  it('alerts "Failed to cancel invitation: …" with the reason, or Unknown error', async () => {
    const org = await createOrganization();
    const gone = await invite(org, org.masterAdmin);
    const other = await invite(org, org.masterAdmin);
    await openUsersPage(org.masterAdmin);
    // Someone else cancelled it first.
    const { data } = await org.masterAdmin.client.from('user_invitations').select('id, email');
    const goneId = data!.find((row) => row.email === gone.email)!.id;
    await org.masterAdmin.client.rpc('cancel_invitation', { invitation_id: goneId });

    await userEvent.click(within(rowOf(gone.email)).getByRole('button', { name: /Cancel/ }));
    await confirmWith('Cancel invitation', 'Are you sure you want to cancel this invitation?');
    await expectNotice('Failed to cancel invitation: Invitation not found');

    // A failure that carries no message at all.
    network.use(
      http.post(
        /\/rest\/v1\/rpc\/cancel_invitation$/,
        () => new HttpResponse(null, { status: 500 }),
      ),
    );
    await userEvent.click(within(rowOf(other.email)).getByRole('button', { name: /Cancel/ }));
    await confirmWith('Cancel invitation', 'Are you sure you want to cancel this invitation?');
    await expectNotice('Failed to cancel invitation: Unknown error');
  });

  it('gives an admin a one-time reset link to pass on when e-mail is not set up', async () => {
    const org = await createOrganization();
    const admin = await addMember(org, 'admin');
    const member = await addMember(org, 'user');
    await openUsersPage(admin);

    await userEvent.click(
      within(rowOf(member.email)).getByRole('button', { name: /Reset password/ }),
    );
    // The test backend has no SMTP server: nothing can be e-mailed, and nothing says "sent".
    await confirmWith(
      'Make link',
      `Make a link for ${member.email} to set a new password? E-mail is not set up on this installation, so you give them the link yourself. It works once, for one hour.`,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reset link' });
    expect(dialog).toHaveTextContent('It was not e-mailed.');
    expect(dialog).not.toHaveTextContent(/\bsent\b/);
    const link = new URL((within(dialog).getByLabelText('Reset link') as HTMLInputElement).value);
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('type')).toBe('recovery');

    // The link signs the member in once.
    const browser = newClient();
    const tokenHash = link.searchParams.get('token_hash')!;
    const first = await browser.auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(first.data.user?.email).toBe(member.email);
    const second = await newClient().auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
    expect(second.error).not.toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('tells an admin that only a master admin makes a reset link for another admin', async () => {
    const org = await createOrganization();
    const admin = await addMember(org, 'admin');
    const other = await addMember(org, 'admin');
    await openUsersPage(admin);
    await userEvent.click(
      within(rowOf(other.email)).getByRole('button', { name: /Reset password/ }),
    );
    await confirmWith('Make link', `Make a link for ${other.email} to set a new password?`);
    await expectNotice(
      'Failed to make a reset link: Only a master admin can make a reset link for an admin',
    );
  });

  it('lets a master admin make an admin a master admin too; admins cannot', async () => {
    const org = await createOrganization();
    const admin = await addMember(org, 'admin');
    await openUsersPage(org.masterAdmin);
    await userEvent.click(
      within(rowOf(admin.email)).getByRole('button', { name: /Make master admin/ }),
    );
    await confirmWith('Make master admin', `Make ${admin.email} a master admin too?`);
    await waitFor(() => expect(within(rowOf(admin.email)).getByText('Master Admin')).toBeVisible());
    const stored = await serviceClient()
      .from('user_profiles')
      .select('role')
      .eq('id', admin.userId)
      .single();
    expect(stored.data).toEqual({ role: 'master_admin' });
  });

  it('lets a master admin make a reset link for another master admin', async () => {
    const org = await createOrganization();
    const second = await addMember(org, 'admin');
    const promoted = await org.masterAdmin.client.rpc('make_master_admin', {
      user_id: second.userId,
    });
    expect(promoted.error).toBeNull();
    await openUsersPage(org.masterAdmin);
    await userEvent.click(
      within(rowOf(second.email)).getByRole('button', { name: /Reset password/ }),
    );
    await confirmWith('Make link', `Make a link for ${second.email} to set a new password?`);
    expect(await screen.findByRole('dialog', { name: 'Reset link' })).toHaveTextContent(
      second.email,
    );
  });
});
