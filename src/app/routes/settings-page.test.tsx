import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization, serviceClient } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

const nav = () => screen.getByRole('navigation', { name: 'Main' });

describe('the Settings page', () => {
  it('renames the organisation and sets its time zone: the bar shows the new name', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/settings' });
    const section = await screen.findByRole('region', { name: 'Organization' });
    const name = within(section).getByLabelText(/Organization name/);
    await user.clear(name);
    await user.type(name, 'Grace Community Church');
    const zone = within(section).getByLabelText('Time zone');
    await user.clear(zone);
    await user.type(zone, 'America/Chicago');
    await user.click(within(section).getByRole('button', { name: 'Save' }));

    expect(await within(section).findByRole('status')).toHaveTextContent('Saved.');
    await waitFor(() =>
      expect(within(nav()).getByText('Grace Community Church')).toBeInTheDocument(),
    );
    const stored = await serviceClient()
      .from('reminder_settings')
      .select('time_zone')
      .eq('organization_id', organization.organizationId)
      .single();
    expect(stored.data).toEqual({ time_zone: 'America/Chicago' });
  });

  it('says under the field when the name is blank or the time zone unknown, and saves nothing', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/settings' });
    const section = await screen.findByRole('region', { name: 'Organization' });
    await user.clear(within(section).getByLabelText(/Organization name/));
    const zone = within(section).getByLabelText('Time zone');
    await user.clear(zone);
    await user.type(zone, 'Mars/Olympus');
    await user.click(within(section).getByRole('button', { name: 'Save' }));
    expect(await within(section).findByText('Enter the organization name.')).toBeInTheDocument();
    expect(
      within(section).getByText('Choose a time zone from the list, for example America/Chicago.'),
    ).toBeInTheDocument();
    const stored = await serviceClient()
      .from('organizations')
      .select('name')
      .eq('id', organization.organizationId)
      .single();
    expect(stored.data?.name).not.toBe('');
  });

  it('renames, hides and adds departments; a renamed one keeps its address', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/settings' });
    const section = await screen.findByRole('region', { name: 'Departments' });
    const list = await within(section).findByRole('list', { name: 'Departments' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(9);

    await user.click(within(list).getByRole('button', { name: 'Edit CGE' }));
    const form = within(list).getByRole('form', { name: 'Edit CGE' });
    const name = within(form).getByLabelText(/Name/);
    await user.clear(name);
    await user.type(name, 'Care & Growth');
    const categories = within(form).getByRole('group', { name: 'Categories' });
    await user.click(await within(categories).findByRole('checkbox', { name: 'Governance' }));
    await user.click(within(categories).getByRole('checkbox', { name: 'Legal' }));
    await user.click(within(form).getByRole('button', { name: 'Save department' }));
    const renamed = await within(list).findByText('Care & Growth');
    expect(renamed.closest('li')).toHaveTextContent('/department/cge');

    await user.click(within(list).getByRole('button', { name: 'Hide Worship' }));
    await waitFor(() =>
      expect(within(list).getByRole('button', { name: 'Show Worship' })).toBeInTheDocument(),
    );

    await user.type(within(section).getByLabelText('New department'), 'Youth & Family');
    await user.click(within(section).getByRole('button', { name: 'Add department' }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(10));

    const { data } = await serviceClient()
      .from('departments')
      .select('key, name, hidden, categories')
      .eq('organization_id', organization.organizationId)
      .order('position');
    expect(data?.find((d) => d.key === 'cge')).toEqual({
      key: 'cge',
      name: 'Care & Growth',
      hidden: false,
      categories: ['Governance', 'Legal'],
    });
    expect(data?.find((d) => d.key === 'worship')?.hidden).toBe(true);
    expect(data?.at(-1)).toMatchObject({ key: 'youth-family', name: 'Youth & Family' });
  });

  it('is for admins: a user is told access is restricted', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    renderApp({ client: member.client, route: '/settings' });
    expect(await screen.findByRole('heading', { name: 'Access Restricted' })).toBeInTheDocument();
  });

  it('says that e-mail is not set up and how to set it up', async () => {
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/settings' });
    const section = await screen.findByRole('region', { name: 'E-mail' });
    expect(await within(section).findByText(/E-mail is not set up: nothing is sent/)).toBeVisible();
    expect(within(section).getByText('SMTP_URL')).toBeInTheDocument();
  });
});

describe("the organisation's own mail server in Settings › E-mail", () => {
  it('refuses a private address in so many words, then saves a server and never shows the password', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/settings' });
    const section = await screen.findByRole('region', { name: 'E-mail' });
    const server = await within(section).findByLabelText(/SMTP server/);
    await user.type(server, '10.0.0.5');
    await user.type(within(section).getByLabelText('User name'), 'office@grace.example.org');
    await user.type(within(section).getByLabelText('Password'), 'church password');
    await user.type(within(section).getByLabelText(/From address/), 'office@grace.example.org');
    // Nothing can be tested before e-mail is set up.
    expect(within(section).getByRole('button', { name: 'Send a test e-mail' })).toBeDisabled();
    await user.click(within(section).getByRole('button', { name: 'Save mail server' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'Could not save: The mail server 10.0.0.5 is on a private or local network; enter a mail server on the internet',
    );

    await user.clear(server);
    await user.type(server, 'smtp.example.org');
    await user.click(within(section).getByRole('button', { name: 'Save mail server' }));
    expect(
      await within(section).findByText(
        /sent through your organization’s mail server, smtp\.example\.org, from office@grace\.example\.org/,
      ),
    ).toBeInTheDocument();
    expect(within(section).getByLabelText('Password')).toHaveValue('');
    expect(
      within(section).getByText('A password is saved. Leave this empty to keep it.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(within(section).getByRole('button', { name: 'Send a test e-mail' })).toBeEnabled(),
    );
    expect(section).not.toHaveTextContent('church password');

    const stored = await serviceClient()
      .from('organization_mail_servers')
      .select('host, port, username, password_ciphertext, from_address')
      .eq('organization_id', organization.organizationId)
      .single();
    expect(stored.data).toMatchObject({
      host: 'smtp.example.org',
      port: 587,
      username: 'office@grace.example.org',
      from_address: 'office@grace.example.org',
    });
    expect(stored.data?.password_ciphertext).not.toContain('church password');

    await user.click(within(section).getByRole('button', { name: 'Remove mail server' }));
    expect(
      await within(section).findByText(/E-mail is not set up: nothing is sent/),
    ).toBeInTheDocument();
  });
});
