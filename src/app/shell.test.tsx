import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization, serviceClient, signUpUser } from '../testing/backend.ts';
import { findNotice } from '../testing/notices.ts';
import { renderApp } from '../testing/render.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

const nav = () => screen.getByRole('navigation', { name: 'Main' });

describe('the authenticated shell', () => {
  it('shows Loading... while the session resolves, then the sign-in form in place of the page', async () => {
    const { router } = renderApp({ route: '/documents' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(await screen.findByRole('heading', { name: 'Sign in to Steward' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/documents');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('gives a master admin every link, the version badge, who they are and their role', async () => {
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/users' });
    await waitFor(() => expect(within(nav()).getByText('Master Admin')).toBeInTheDocument());

    const links = within(nav())
      .getAllByRole('link')
      .map((link) => link.textContent?.trim())
      .filter(Boolean);
    expect(links).toEqual(
      expect.arrayContaining(['Dashboard', 'Documents', 'Upload', 'Operations', 'Users', 'OAuth']),
    );
    expect(within(nav()).getByText('v2.1.0')).toBeInTheDocument();
    // No custom logo stored: the product name stands in.
    expect(within(nav()).getByText('Steward')).toBeInTheDocument();
    // No full name yet: the e-mail stands in for it, once.
    expect(within(nav()).getAllByText(organization.masterAdmin.email)).toHaveLength(1);
    expect(within(nav()).getByRole('link', { name: 'Users' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(nav()).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute(
      'aria-current',
    );
    expect(within(nav()).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('gives a user the four links only, their full name and the User badge', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user', 'Ruth Miller');
    renderApp({ client: member.client, route: '/users' });
    await waitFor(() => expect(within(nav()).getByText('User')).toBeInTheDocument());
    expect(within(nav()).getByText('Ruth Miller')).toBeInTheDocument();
    expect(within(nav()).getByText(member.email)).toBeInTheDocument();
    expect(within(nav()).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    expect(within(nav()).queryByRole('link', { name: 'OAuth' })).not.toBeInTheDocument();
    expect(within(nav()).getByRole('link', { name: 'Operations' })).toBeInTheDocument();
    expect(
      within(nav()).queryByRole('button', { name: 'Upload custom logo' }),
    ).not.toBeInTheDocument();
  });

  it('lets a member set their own name in a profile dialog, shown then with the e-mail once', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const { email, userId, client } = organization.masterAdmin;
    renderApp({ client, route: '/users' });
    await waitFor(() => expect(within(nav()).getByText('Master Admin')).toBeInTheDocument());
    const ownRow = () => screen.getByRole('row', { name: new RegExp(email) });
    expect(
      within(await screen.findByRole('row', { name: new RegExp(email) })).getByText('No name set'),
    ).toBeInTheDocument();

    await user.click(within(nav()).getByRole('button', { name: 'Edit profile' }));
    let dialog = await screen.findByRole('dialog', { name: 'Your profile' });
    expect(within(dialog).getByLabelText('Full name')).toHaveValue('');
    expect(within(dialog).getByText(email)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Full name'), '  Pastor John ');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      within(screen.getByRole('log', { name: 'Notifications' })).getByText(
        'Your profile has been saved.',
      ),
    ).toBeInTheDocument();
    expect(within(nav()).getByText('Pastor John')).toBeInTheDocument();
    expect(within(nav()).getAllByText(email)).toHaveLength(1);
    await waitFor(() => expect(within(ownRow()).getByText('Pastor John')).toBeInTheDocument());
    const stored = await serviceClient()
      .from('user_profiles')
      .select('full_name')
      .eq('id', userId)
      .single();
    expect(stored.data).toEqual({ full_name: 'Pastor John' });

    // A blank name clears it: the e-mail stands in again.
    await user.click(within(nav()).getByRole('button', { name: 'Edit profile' }));
    dialog = await screen.findByRole('dialog', { name: 'Your profile' });
    expect(within(dialog).getByLabelText('Full name')).toHaveValue('Pastor John');
    await user.clear(within(dialog).getByLabelText('Full name'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(nav()).queryByText('Pastor John')).not.toBeInTheDocument());
    expect(within(nav()).getAllByText(email)).toHaveLength(1);
  });

  it('says so when the name cannot be saved, and keeps what was typed', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    renderApp({ client: member.client, route: '/' });
    await screen.findByRole('navigation', { name: 'Main' });
    await user.click(await within(nav()).findByRole('button', { name: 'Edit profile' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your profile' });
    // Deactivated meanwhile: the server changes nothing of theirs any more.
    await organization.masterAdmin.client.rpc('deactivate_user', { user_id: member.userId });
    await user.type(within(dialog).getByLabelText('Full name'), 'Ruth Miller');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await findNotice('Failed to update profile')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Full name')).toHaveValue('Ruth Miller');
  });

  it('shows an admin the Admin badge and the admin links', async () => {
    const organization = await createOrganization();
    const admin = await addMember(organization, 'admin');
    renderApp({ client: admin.client, route: '/users' });
    await waitFor(() => expect(within(nav()).getByText('Admin')).toBeInTheDocument());
    expect(within(nav()).getByRole('link', { name: 'OAuth' })).toBeInTheDocument();
    expect(within(nav()).getByRole('button', { name: 'Upload custom logo' })).toBeInTheDocument();
  });

  it("keeps the specification's links in the bar and the other pages in a labelled More menu", async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const { router } = renderApp({ client: organization.masterAdmin.client, route: '/' });
    await waitFor(() => expect(within(nav()).getByText('Master Admin')).toBeInTheDocument());
    // The desktop bar (the first list of links; the small-screen menu is closed).
    const bar = within(nav()).getAllByRole('list')[0]!;
    expect(
      within(bar)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Dashboard', 'Documents', 'Upload', 'Operations', 'Users', 'OAuth']);
    expect(within(nav()).queryByRole('link', { name: 'Reminders' })).not.toBeInTheDocument();

    const more = within(nav()).getByRole('button', { name: 'More' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const menu = document.getElementById(more.getAttribute('aria-controls')!)!;
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Reminders', 'Trash', 'Outbox', 'Requests', 'Activity', 'Categories', 'Settings']);
    await user.click(within(menu).getByRole('link', { name: 'Settings' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(more).toHaveAttribute('aria-expanded', 'false');
    // The profile is a labelled button, not an icon alone.
    expect(within(nav()).getByRole('button', { name: 'Edit profile' })).toHaveTextContent(
      'Profile',
    );
  });

  it('gives a user Reminders and Trash in the More menu, without the admin pages', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    renderApp({ client: member.client, route: '/' });
    await waitFor(() => expect(within(nav()).getByText('User')).toBeInTheDocument());
    const more = within(nav()).getByRole('button', { name: 'More' });
    await user.click(more);
    const menu = document.getElementById(more.getAttribute('aria-controls')!)!;
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Reminders', 'Trash']);
    await user.keyboard('{Escape}');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(more).toHaveFocus();
  });

  it('signs out to the sign-in form, staying on the same address', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const { router } = renderApp({ client: organization.masterAdmin.client, route: '/users' });
    await waitFor(() => expect(within(nav()).getByText('Master Admin')).toBeInTheDocument());
    await user.click(within(nav()).getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Steward' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/users');
    const { data } = await organization.masterAdmin.client.auth.getSession();
    expect(data.session).toBeNull();
  });

  it('puts the links and the user in a menu that opens and closes (small screens)', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const { router } = renderApp({ client: organization.masterAdmin.client, route: '/users' });
    const toggle = await screen.findByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAccessibleName('Close menu');
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(within(menu).getByRole('link', { name: 'Users' })).toBeInTheDocument();
    expect(within(menu).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');

    // Following a link closes the menu.
    await user.click(toggle);
    const opened = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    await user.click(within(opened).getByRole('link', { name: 'Upload' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/upload'));
    expect(await screen.findByRole('button', { name: 'Open menu' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  it('tells a deactivated member so, instead of showing empty pages', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const { error } = await organization.masterAdmin.client.rpc('deactivate_user', {
      user_id: member.userId,
    });
    expect(error).toBeNull();
    renderApp({ client: member.client, route: '/documents' });
    expect(
      await screen.findByRole('heading', { name: 'Your account has been deactivated' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/contact an administrator/)).toBeInTheDocument();
    expect(within(nav()).queryByRole('link', { name: 'Documents' })).not.toBeInTheDocument();
    expect(within(nav()).queryByRole('button', { name: 'Edit profile' })).not.toBeInTheDocument();
    expect(within(nav()).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });

  it('explains a profile that cannot be loaded, with Try again', async () => {
    const user = await signUpUser();
    // Arranged with the service key: a user whose profile row is gone.
    const { error } = await serviceClient().from('user_profiles').delete().eq('id', user.userId);
    expect(error).toBeNull();
    renderApp({ client: user.client, route: '/' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error: Failed to fetch user profile');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(within(alert).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
  });
});
