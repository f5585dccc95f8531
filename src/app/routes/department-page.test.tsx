import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization } from '../../testing/backend.ts';
import { findNotice } from '../../testing/notices.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedDocuments } from '../../testing/seed-documents.ts';
import { TEAM_MANAGED_BY_ADMINS } from './department-page.tsx';

const slow = { timeout: 8000 };

function statValue(label: string): string | null {
  return screen.getByText(label, { selector: 'p' }).nextElementSibling?.textContent ?? null;
}

function quickActions() {
  return within(screen.getByRole('region', { name: 'Quick Actions' }));
}

describe('department page', { timeout: 60_000 }, () => {
  it('shows Department Not Found with Return to Dashboard for an unknown key', async () => {
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/department/choir' });
    expect(
      await screen.findByRole('heading', { name: 'Department Not Found' }, slow),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Return to Dashboard' })).toHaveAttribute('href', '/');
  });

  it('shows the department, its six feature lines and the live and fixed figures', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    await addMember(organization, 'admin');
    const leaving = await addMember(organization, 'user');
    const deactivated = await organization.masterAdmin.client.rpc('deactivate_user', {
      user_id: leaving.userId,
    });
    expect(deactivated.error).toBeNull();
    await seedDocuments(organization, [
      { name: 'Set list.pdf', tags: ['worship'] },
      { name: 'Team rota.xlsx', tags: ['Worship Team'] },
      { name: 'Youth camp.pdf', tags: ['youth'] },
    ]);
    const other = await createOrganization();
    await seedDocuments(other, [{ name: 'Their set list.pdf', tags: ['worship'] }]);

    renderApp({ client: member.client, route: '/department/worship' });
    expect(
      await screen.findByRole('heading', { name: 'Worship Ministry', level: 1 }, slow),
    ).toBeVisible();
    expect(
      screen.getByText('Leading our congregation in worship through music, prayer and the arts.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', '/');
    const features = screen.getByRole('region', { name: 'What Worship covers' });
    expect(within(features).getAllByRole('listitem')).toHaveLength(6);
    expect(within(features).getByText('Chord charts and lyrics')).toBeVisible();

    // The documents its list shows: tagged with the department's key or label (one rule for both).
    await waitFor(() => expect(statValue('Documents')).toBe('1'), slow);
    expect(
      within(screen.getByRole('list', { name: 'Worship Documents' })).getAllByRole('checkbox'),
    ).toHaveLength(1);
    await waitFor(() => expect(statValue('Team Members')).toBe('3'), slow);
    expect(statValue('Active Projects')).toBe('5');
    expect(statValue('Resources')).toBe('12');
  });

  it('gives a member Upload Documents, Manage Team and Department Settings but not Manage Access', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const user = userEvent.setup({ delay: null });
    renderApp({ client: member.client, route: '/department/r-kids' });
    await screen.findByRole('heading', { name: 'R/Kids Ministry', level: 1 }, slow);

    expect(quickActions().getByRole('link', { name: 'Upload Documents' })).toHaveAttribute(
      'href',
      '/upload',
    );
    expect(quickActions().queryByRole('link', { name: 'Manage Access' })).not.toBeInTheDocument();
    expect(quickActions().queryByRole('button', { name: 'Manage Access' })).not.toBeInTheDocument();

    await user.click(quickActions().getByRole('button', { name: 'Manage Team' }));
    expect(await findNotice(TEAM_MANAGED_BY_ADMINS)).toBeInTheDocument();

    await user.click(quickActions().getByRole('button', { name: 'Department Settings' }));
    const settings = await screen.findByRole('dialog', { name: 'Department Settings' });
    expect(settings).toHaveTextContent(
      'Documents appear on the R/Kids Ministry page when one of their tags is r-kids, R/Kids, r/kids.',
    );
  });

  it('shows a renamed department at its address, fed by the categories chosen in Settings', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const renamed = await organization.masterAdmin.client
      .from('departments')
      .update({ name: 'Care & Growth', categories: ['Governance'], tags: [] })
      .eq('key', 'cge');
    expect(renamed.error).toBeNull();
    await seedDocuments(organization, [
      { name: 'Safeguarding policy.pdf', category: 'Governance' },
      { name: 'Old CGE flyer.pdf', tags: ['cge'] },
    ]);
    renderApp({ client: member.client, route: '/department/cge' });
    await screen.findByRole('heading', { name: 'Care & Growth', level: 1 }, slow);
    // The rule is on the page itself, not only behind Department Settings.
    expect(
      screen.getByText('This page lists the documents of the categories Governance.'),
    ).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Care & Growth Documents' }, slow);
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(list).toHaveTextContent('Safeguarding policy.pdf');
    expect(list).not.toHaveTextContent('Old CGE flyer.pdf');
  });

  it("opens Upload from an empty department with the department's first category and its tags filled in", async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const shaped = await organization.masterAdmin.client
      .from('departments')
      .update({ categories: ['Governance', 'Legal'], tags: ['cge', 'Care & Growth'] })
      .eq('key', 'cge');
    expect(shaped.error).toBeNull();
    const user = userEvent.setup();
    renderApp({ client: member.client, route: '/department/cge' });
    expect(
      await screen.findByText('No documents found for this page yet.', {}, slow),
    ).toBeVisible();
    const list = screen.getByText('No documents found for this page yet.').parentElement!;
    await user.click(within(list).getByRole('link', { name: 'Upload Documents' }));

    expect(
      await screen.findByRole('heading', { name: 'Upload Documents', level: 1 }, slow),
    ).toBeVisible();
    await waitFor(() => expect(screen.getByLabelText(/Category/)).toHaveValue('Governance'));
    expect(screen.getByLabelText('Tags')).toHaveValue('cge, Care & Growth');
  });

  it('leaves out a category from the address that the member may not upload into', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    renderApp({ client: member.client, route: '/upload?category=No%20such%20category&tags=youth' });
    await screen.findByRole('heading', { name: 'Upload Documents', level: 1 }, slow);
    await waitFor(() => expect(screen.getByLabelText(/Category/)).toHaveValue(''));
    expect(screen.getByLabelText('Tags')).toHaveValue('youth');
  });

  it('shows a department the organisation added, and not one it removed', async () => {
    const organization = await createOrganization();
    const added = await organization.masterAdmin.client
      .from('departments')
      // The server makes the key from the name (the type asks for one the column has no default).
      .insert({ organization_id: organization.organizationId, name: 'Youth & Family' } as never)
      .select('key')
      .single();
    expect(added.data?.key).toBe('youth-family');
    await organization.masterAdmin.client.from('departments').delete().eq('key', 'worship');
    renderApp({ client: organization.masterAdmin.client, route: '/department/youth-family' });
    await screen.findByRole('heading', { name: 'Youth & Family', level: 1 }, slow);
    expect(screen.getByRole('link', { name: 'Change in Settings' })).toHaveAttribute(
      'href',
      '/settings',
    );
  });

  it('gives an admin Manage Team and Manage Access on the user management page', async () => {
    const organization = await createOrganization();
    const admin = await addMember(organization, 'admin');
    renderApp({ client: admin.client, route: '/department/elder-board' });
    await screen.findByRole('heading', { name: 'Elder Board', level: 1 }, slow);
    expect(quickActions().getByRole('link', { name: 'Manage Team' })).toHaveAttribute(
      'href',
      '/users',
    );
    expect(quickActions().getByRole('link', { name: 'Manage Access' })).toHaveAttribute(
      'href',
      '/users',
    );
    expect(
      quickActions()
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Upload Documents', 'Manage Team', 'Department Settings', 'Manage Access']);
  });
});
