import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedDocuments } from '../../testing/seed-documents.ts';

const slow = { timeout: 8000 };

function statValue(label: string): string | null {
  return screen.getByText(label, { selector: 'p' }).nextElementSibling?.textContent ?? null;
}

/** Waits until the integration cards (and so the three tool figures) have loaded. */
async function cardsLoaded() {
  return screen.findByRole('list', { name: 'Integrations' }, slow);
}

function card(name: string) {
  return screen.getByRole('article', { name });
}

describe('integration category page', { timeout: 60_000 }, () => {
  it('shows Category Not Found with Return to Dashboard for an unknown key', async () => {
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/operations/gardening' });
    expect(await screen.findByRole('heading', { name: 'Category Not Found' }, slow)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/');
  });

  it('shows a member the category, its built-in tools and the quick actions, read-only', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    renderApp({ client: member.client, route: '/operations/it' });

    expect(
      await screen.findByRole('heading', { name: 'IT & Technology', level: 1 }, slow),
    ).toBeVisible();
    expect(
      screen.getByText(
        'Email and accounts, your website and how people find it on search engines.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/');
    await cardsLoaded();

    const workspace = card('Google Workspace');
    const open = within(workspace).getByRole('link', { name: /^Open Google Workspace/ });
    expect(open).toHaveAttribute('href', 'https://workspace.google.com');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(workspace).getByText('OAuth')).toBeVisible();
    expect(within(card('Google Search Console')).getByText('OAuth')).toBeVisible();
    expect(within(card('Squarespace')).queryByText('OAuth')).not.toBeInTheDocument();
    expect(within(card('Squarespace')).getByText('No contact saved yet')).toBeVisible();

    expect(statValue('Available Tools')).toBe('3');
    expect(statValue('OAuth Ready')).toBe('2');
    expect(statValue('Active Contacts')).toBe('0');

    expect(screen.queryByRole('button', { name: 'Add Integration' })).not.toBeInTheDocument();
    // No "Edit <integration>" on the page (the navigation bar's "Edit profile" is not the page's).
    expect(
      within(screen.getByRole('main')).queryByRole('button', { name: /^Edit / }),
    ).not.toBeInTheDocument();

    const actions = screen.getByRole('region', { name: 'Quick Actions' });
    expect(
      within(actions)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Upload Documents', '/upload'],
      ['Manage OAuth', '/oauth'],
      ['View Reports', '/documents'],
    ]);
    expect(
      screen.queryByRole('heading', { name: 'Corporate Status Dashboard' }),
    ).not.toBeInTheDocument();
  });

  it('counts as Related Documents exactly the documents its list shows: the category, or tagged with the key or label', async () => {
    const organization = await createOrganization();
    await seedDocuments(organization, [
      { name: 'handbook.pdf', category: 'HR' },
      { name: 'onboarding.pdf', category: 'Other', tags: ['hr'] },
      { name: 'policy.pdf', category: 'Governance', tags: ['board', 'Staff HR Policy'] },
      { name: 'budget.xlsx', category: 'Accounting', tags: ['budget'] },
      { name: 'notes.txt', category: 'Other' },
    ]);
    const other = await createOrganization();
    await seedDocuments(other, [{ name: 'their handbook.pdf', category: 'HR' }]);

    renderApp({ client: organization.masterAdmin.client, route: '/operations/hr' });
    await screen.findByRole('heading', { name: 'HR Management', level: 1 }, slow);
    await waitFor(() => expect(statValue('Related Documents')).toBe('2'), slow);
    const list = screen.getByRole('list', { name: 'HR Documents' });
    expect(within(list).getAllByRole('checkbox')).toHaveLength(2);
  });

  it('agrees on /operations/social-media: documents tagged social-media are counted and listed', async () => {
    const organization = await createOrganization();
    await seedDocuments(organization, [
      { name: 'Instagram plan.pdf', category: 'Other', tags: ['social-media'] },
      { name: 'Facebook ads.xlsx', category: 'Reports', tags: ['social-media', 'ads'] },
      { name: 'Unrelated.pdf', category: 'Other', tags: ['media'] },
    ]);
    renderApp({ client: organization.masterAdmin.client, route: '/operations/social-media' });
    const list = await screen.findByRole('list', { name: 'Social Media Documents' }, slow);
    expect(within(list).getAllByRole('checkbox')).toHaveLength(2);
    await waitFor(() => expect(statValue('Related Documents')).toBe('2'), slow);
  });

  it('counts Active Contacts only for tools whose contact has a name', async () => {
    const organization = await createOrganization();
    const client = organization.masterAdmin.client;
    const contacts = await client.from('integration_contacts').insert([
      { organization_id: organization.organizationId, integration_key: 'slack', name: 'Pat Smith' },
      {
        organization_id: organization.organizationId,
        integration_key: 'zoom',
        email: 'it@grace.org',
      },
      // A contact of another category's tool does not count here.
      { organization_id: organization.organizationId, integration_key: 'gusto', name: 'Lee' },
    ]);
    expect(contacts.error).toBeNull();
    renderApp({ client, route: '/operations/communications' });
    await cardsLoaded();
    expect(statValue('Available Tools')).toBe('3');
    expect(statValue('OAuth Ready')).toBe('2');
    expect(statValue('Active Contacts')).toBe('1');
  });

  it('lets any member view a saved contact but only admins edit it', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const admin = await addMember(organization, 'admin');
    await organization.masterAdmin.client.from('integration_contacts').insert({
      organization_id: organization.organizationId,
      integration_key: 'mailchimp',
      name: 'Pat Smith',
      title: 'Account Manager',
      email: 'pat@mailchimp.example',
      phone: '+1 555 0100',
      company: 'Customer Success',
      notes: 'Call before 3pm',
    });

    const user = userEvent.setup({ delay: null });
    const view = renderApp({ client: member.client, route: '/operations/communications' });
    await cardsLoaded();
    await user.click(within(card('Mailchimp')).getByRole('button', { name: 'Contact: Pat Smith' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mailchimp Contact' });
    for (const [label, value] of [
      ['Name', 'Pat Smith'],
      ['Title', 'Account Manager'],
      ['Email', 'pat@mailchimp.example'],
      ['Phone', '+1 555 0100'],
      ['Department/Team', 'Customer Success'],
      ['Notes', 'Call before 3pm'],
    ]) {
      expect(within(dialog).getByText(label!).nextElementSibling).toHaveTextContent(value!);
    }
    expect(within(dialog).queryByRole('button', { name: 'Edit Contact' })).not.toBeInTheDocument();
    expect(within(card('Zoom')).queryByRole('button')).not.toBeInTheDocument();
    view.unmount();

    renderApp({ client: admin.client, route: '/operations/communications' });
    await cardsLoaded();
    await user.click(within(card('Zoom')).getByRole('button', { name: 'Add Contact' }));
    const form = await screen.findByRole('dialog', { name: 'Zoom Contact' });
    await user.type(within(form).getByLabelText('Email'), 'not-an-address');
    await user.click(within(form).getByRole('button', { name: 'Save Contact' }));
    expect(within(form).getByText('Please enter a valid email address.')).toBeVisible();
    await user.clear(within(form).getByLabelText('Email'));
    await user.type(within(form).getByLabelText('Email'), 'sam@zoom.example');
    await user.type(within(form).getByLabelText('Name'), 'Sam Lee');
    await user.type(within(form).getByLabelText('Department/Team'), 'Church accounts');
    await user.click(within(form).getByRole('button', { name: 'Save Contact' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), slow);
    expect(within(card('Zoom')).getByRole('button', { name: 'Contact: Sam Lee' })).toBeVisible();
    expect(statValue('Active Contacts')).toBe('2');
    const { data } = await member.client
      .from('integration_contacts')
      .select('name, email, company, title')
      .eq('integration_key', 'zoom')
      .single();
    expect(data).toEqual({
      name: 'Sam Lee',
      email: 'sam@zoom.example',
      company: 'Church accounts',
      title: null,
    });
  });

  it('lets a master admin add, edit and delete a custom integration, with validation', async () => {
    const organization = await createOrganization();
    const client = organization.masterAdmin.client;
    const user = userEvent.setup({ delay: null });
    renderApp({ client, route: '/operations/it' });
    await cardsLoaded();
    expect(statValue('Available Tools')).toBe('3');

    await user.click(screen.getByRole('button', { name: 'Add Integration' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Integration' });
    expect(within(dialog).getByLabelText('Name')).toHaveValue('New Integration');
    expect(within(dialog).getByLabelText('Description')).toHaveValue(
      'Custom integration for your organization',
    );
    expect(within(dialog).getByLabelText('Website URL')).toHaveValue('https://example.com');
    expect(within(dialog).getByLabelText('Category')).toHaveValue('Custom');
    expect(
      within(within(dialog).getByLabelText('Category'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toContain('Practice Management');

    await user.clear(within(dialog).getByLabelText('Name'));
    await user.clear(within(dialog).getByLabelText('Website URL'));
    await user.type(within(dialog).getByLabelText('Website URL'), 'javascript:alert(1)');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByText('Please enter a name.')).toBeVisible();
    expect(
      within(dialog).getByText(
        'Please enter a valid web address starting with http:// or https://.',
      ),
    ).toBeVisible();
    expect(within(dialog).getByLabelText('Website URL')).toHaveAttribute('aria-invalid', 'true');

    await user.type(within(dialog).getByLabelText('Name'), 'Wi-Fi Portal');
    await user.clear(within(dialog).getByLabelText('Website URL'));
    await user.type(
      within(dialog).getByLabelText('Website URL'),
      'https://wifi.grace.example/admin',
    );
    await user.selectOptions(within(dialog).getByLabelText('Category'), 'Internal');
    await user.type(within(dialog).getByLabelText('Tags (optional)'), 'network, guests');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), slow);
    const added = card('Wi-Fi Portal');
    expect(within(added).getByRole('link', { name: /^Open Wi-Fi Portal/ })).toHaveAttribute(
      'href',
      'https://wifi.grace.example/admin',
    );
    expect(within(added).getByText('network')).toBeVisible();
    expect(statValue('Available Tools')).toBe('4');
    expect(statValue('OAuth Ready')).toBe('2');
    const saved = await client
      .from('custom_integrations')
      .select('name, operations_category, category, tags');
    expect(saved.data).toEqual([
      {
        name: 'Wi-Fi Portal',
        operations_category: 'it',
        category: 'Internal',
        tags: ['network', 'guests'],
      },
    ]);

    await user.click(within(added).getByRole('button', { name: 'Edit Wi-Fi Portal' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit Wi-Fi Portal' });
    await user.clear(within(edit).getByLabelText('Name'));
    await user.type(within(edit).getByLabelText('Name'), 'Guest Wi-Fi');
    await user.click(within(edit).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('article', { name: 'Guest Wi-Fi' }, slow)).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Edit Guest Wi-Fi' }));
    const remove = await screen.findByRole('dialog', { name: 'Edit Guest Wi-Fi' });
    await user.click(within(remove).getByRole('button', { name: 'Delete Integration' }));
    expect(
      within(remove).getByText('Are you sure you want to delete "Guest Wi-Fi"?'),
    ).toBeVisible();
    await user.click(within(remove).getByRole('button', { name: 'Yes, delete integration' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), slow);
    expect(screen.queryByRole('article', { name: 'Guest Wi-Fi' })).not.toBeInTheDocument();
    expect(statValue('Available Tools')).toBe('3');
    expect((await client.from('custom_integrations').select('id')).data).toEqual([]);
  });

  it('lets a master admin customise a built-in integration and restore it', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const user = userEvent.setup({ delay: null });
    const view = renderApp({ client: organization.masterAdmin.client, route: '/operations/it' });
    await cardsLoaded();

    await user.click(screen.getByRole('button', { name: 'Edit Squarespace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Squarespace' });
    expect(within(dialog).getByLabelText('Website URL')).toHaveValue('https://www.squarespace.com');
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Church Website');
    await user.clear(within(dialog).getByLabelText('Website URL'));
    await user.type(within(dialog).getByLabelText('Website URL'), 'https://grace.example.org');
    await user.type(within(dialog).getByLabelText('Note (optional)'), 'Login in the office safe');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument(), slow);
    view.unmount();

    // Every member of the organisation sees the customised card.
    const memberView = renderApp({ client: member.client, route: '/operations/it' });
    await cardsLoaded();
    const customised = card('Church Website');
    expect(within(customised).getByText('Customized')).toBeVisible();
    expect(within(customised).getByText('Login in the office safe')).toBeVisible();
    expect(within(customised).getByRole('link', { name: /^Open Church Website/ })).toHaveAttribute(
      'href',
      'https://grace.example.org',
    );
    memberView.unmount();

    renderApp({ client: organization.masterAdmin.client, route: '/operations/it' });
    await cardsLoaded();
    await user.click(screen.getByRole('button', { name: 'Edit Church Website' }));
    const restore = await screen.findByRole('dialog', { name: 'Edit Church Website' });
    await user.click(within(restore).getByRole('button', { name: 'Restore Defaults' }));
    await user.click(within(restore).getByRole('button', { name: 'Yes, restore defaults' }));
    expect(await screen.findByRole('article', { name: 'Squarespace' }, slow)).toBeVisible();
    const rows = await member.client.from('integration_customizations').select('id');
    expect(rows.data).toEqual([]);
  });

  it('keeps one organisation’s integrations and contacts from another', async () => {
    const organization = await createOrganization();
    await organization.masterAdmin.client.from('custom_integrations').insert({
      organization_id: organization.organizationId,
      operations_category: 'hr',
      name: 'Our Private HR Tool',
    });
    await organization.masterAdmin.client.from('integration_contacts').insert({
      organization_id: organization.organizationId,
      integration_key: 'gusto',
      name: 'Secret Contact',
    });
    const other = await createOrganization();
    renderApp({ client: other.masterAdmin.client, route: '/operations/hr' });
    await cardsLoaded();
    expect(screen.queryByRole('article', { name: 'Our Private HR Tool' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Secret Contact/)).not.toBeInTheDocument();
    expect(statValue('Available Tools')).toBe('5');
    expect(statValue('Active Contacts')).toBe('0');
  });
});
