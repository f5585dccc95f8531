import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { utcDateString } from '../../lib/expiry.ts';
import { addMember, createOrganization, signUpUser } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedDocuments, seedStoredDocument } from '../../testing/seed-documents.ts';

// The first render waits for the session, the profile and the lazily loaded page.
const PAGE = { timeout: 10_000 };

function daysFromToday(days: number): string {
  const today = Date.parse(`${utcDateString()}T00:00:00Z`);
  return new Date(today + days * 86_400_000).toISOString().slice(0, 10);
}

/** A counter's figure, read from the counters (an admin's navigation also has a Categories link). */
function statValue(label: string): string | null {
  return (
    within(screen.getByTestId('dashboard-stats')).getByText(label).nextElementSibling
      ?.textContent ?? null
  );
}

describe('dashboard', () => {
  it('welcomes a user without an organisation and points to the set-up', async () => {
    const { client } = await signUpUser();
    renderApp({ client, route: '/' });
    expect(
      await screen.findByRole('heading', { name: 'Set up your organization' }, PAGE),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Set Up Organization' })).toHaveAttribute(
      'href',
      '/users',
    );
    expect(screen.queryByText('Total Documents')).not.toBeInTheDocument();
  });

  it('shows the loading skeleton, then the organisation and the counters at the boundaries', async () => {
    const organization = await createOrganization();
    await seedDocuments(organization, [
      { name: 'long overdue.pdf', category: 'Legal', expiry_date: daysFromToday(-400) },
      { name: 'yesterday.pdf', category: 'Legal', expiry_date: daysFromToday(-1) },
      { name: 'today.pdf', category: 'HR', expiry_date: daysFromToday(0) },
      { name: 'in 30 days.pdf', category: 'HR', expiry_date: daysFromToday(30) },
      { name: 'in 31 days.pdf', category: 'Reports', expiry_date: daysFromToday(31) },
      { name: 'no expiry.pdf', category: 'Reports' },
      { name: 'far away.pdf', category: 'Other', expiry_date: daysFromToday(900) },
    ]);
    renderApp({ client: organization.masterAdmin.client, route: '/' });
    expect(
      await screen.findByRole('status', { name: 'Loading dashboard' }, PAGE),
    ).toHaveTextContent('Loading...');

    expect(await screen.findByRole('heading', { name: organization.name })).toBeInTheDocument();
    expect(statValue('Total Documents')).toBe('7');
    expect(statValue('Expiring Soon')).toBe('2');
    expect(statValue('Overdue')).toBe('2');
    expect(statValue('Categories')).toBe('4');

    const renewals = screen.getByRole('region', { name: 'Upcoming Renewals' });
    // Each row is a link to its document.
    const links = within(renewals)
      .getAllByRole('listitem')
      .map((item) => within(item).getByRole('link'));
    expect(
      links.map((link) => [
        link.firstElementChild?.firstElementChild?.textContent,
        link.lastElementChild?.textContent,
      ]),
    ).toEqual([
      ['long overdue.pdf', 'overdue'],
      ['yesterday.pdf', 'overdue'],
      ['today.pdf', 'soon'],
      ['in 30 days.pdf', 'soon'],
      ['in 31 days.pdf', 'ok'],
    ]);
    expect(links[0]!.getAttribute('href')).toMatch(/^\/documents\?document=[0-9a-f-]{36}$/);
    // Manage opens the list ordered by expiry date; the counters open it filtered.
    expect(within(renewals).getByRole('link', { name: 'Manage' })).toHaveAttribute(
      'href',
      '/documents?sort=expiry_date',
    );
    expect(screen.getByRole('link', { name: /Overdue/ })).toHaveAttribute(
      'href',
      '/documents?expiry=overdue',
    );
    expect(screen.getByRole('link', { name: /Expiring Soon/ })).toHaveAttribute(
      'href',
      '/documents?expiry=soon',
    );
  });

  it('lists the five newest documents and opens one in the preview', async () => {
    const organization = await createOrganization();
    await seedDocuments(
      organization,
      Array.from({ length: 7 }, (_, index) => ({
        name: `Doc ${index + 1}.pdf`,
        created_at: `2025-01-0${index + 1}T09:00:00Z`,
      })),
    );
    await seedStoredDocument(
      organization,
      { name: 'Newest notes.txt', category: 'Operations', created_at: '2025-02-01T09:00:00Z' },
      'Welcome team',
    );
    renderApp({ client: organization.masterAdmin.client, route: '/' });
    const recent = await screen.findByRole('region', { name: 'Recent Documents' }, PAGE);
    // The region is there while the list still loads.
    await within(recent).findByText('Newest notes.txt', {}, PAGE);
    expect(
      within(recent)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('span span')?.textContent),
    ).toEqual(['Newest notes.txt', 'Doc 7.pdf', 'Doc 6.pdf', 'Doc 5.pdf', 'Doc 4.pdf']);
    expect(within(recent).getByRole('link', { name: 'View all' })).toHaveAttribute(
      'href',
      '/documents',
    );
    await userEvent.click(within(recent).getByRole('button', { name: /Newest notes\.txt/ }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Welcome team')).toBeInTheDocument();
  });

  it('shows admins a first-run checklist whose steps tick themselves, until it is hidden', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const admin = organization.masterAdmin.client;
    const view = renderApp({ client: admin, route: '/' });
    const checklist = await screen.findByRole('region', { name: 'Get started' }, PAGE);
    expect(checklist).toHaveTextContent('0 of 4 done');
    const steps = within(checklist).getByRole('list', { name: 'First steps' });
    expect(
      within(steps)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Invite your team(to do)',
      'Review categories and access(to do)',
      'Set up e-mail(to do)',
      'Upload the first documents(to do)',
    ]);
    view.unmount();

    // Done elsewhere: a document uploaded and someone invited tick their steps.
    await seedDocuments(organization, [{ name: 'Constitution.pdf' }]);
    const invited = await admin.rpc('invite_user', {
      email: `checklist-${Date.now()}@example.test`,
      role: 'user',
      full_name: '',
    });
    expect(invited.error).toBeNull();
    const { router } = renderApp({ client: admin, route: '/' });
    const again = await screen.findByRole('region', { name: 'Get started' }, PAGE);
    await waitFor(() => expect(again).toHaveTextContent('2 of 4 done'));
    // Opening the review ticks it.
    await user.click(within(again).getByRole('link', { name: 'Review categories and access' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/categories'));
    await user.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', {
        name: 'Dashboard',
      }),
    );
    const third = await screen.findByRole('region', { name: 'Get started' }, PAGE);
    await waitFor(() => expect(third).toHaveTextContent('3 of 4 done'));
    // E-mail is not set up on the test backend: that step stays to do.
    expect(within(third).getByText('(to do)').previousSibling).toHaveTextContent('Set up e-mail');

    await user.click(within(third).getByRole('button', { name: 'Hide this list' }));
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument(),
    );
    const stored = await admin.rpc('onboarding_status');
    expect((stored.data as { dismissed: boolean }).dismissed).toBe(true);
  });

  it('shows no checklist to a user', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    renderApp({ client: member.client, route: '/' });
    await screen.findByRole('region', { name: 'Business Departments' }, PAGE);
    expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument();
  });

  it("shows the organisation's own departments: renamed, hidden and added ones", async () => {
    const organization = await createOrganization();
    const admin = organization.masterAdmin.client;
    await admin.from('departments').update({ name: 'Care & Growth' }).eq('key', 'cge');
    await admin.from('departments').update({ hidden: true }).eq('key', 'worship');
    await admin
      .from('departments')
      // The server makes the key from the name (the type asks for one; the column has no default).
      .insert({ organization_id: organization.organizationId, name: 'Youth & Family' } as never);
    renderApp({ client: admin, route: '/' });
    const departments = await screen.findByRole('region', { name: 'Business Departments' }, PAGE);
    await waitFor(() =>
      expect(within(departments).getByRole('link', { name: 'Care & Growth' })).toHaveAttribute(
        'href',
        '/department/cge',
      ),
    );
    expect(within(departments).queryByRole('link', { name: 'Worship' })).not.toBeInTheDocument();
    expect(within(departments).getByRole('link', { name: 'Youth & Family' })).toHaveAttribute(
      'href',
      '/department/youth-family',
    );
  });

  it('shows the empty states, departments, operations and version labels', async () => {
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/' });
    const recent = await screen.findByRole('region', { name: 'Recent Documents' }, PAGE);
    expect(
      within(recent).getByRole('link', { name: 'Upload your first document' }),
    ).toHaveAttribute('href', '/upload');
    expect(
      within(screen.getByRole('region', { name: 'Upcoming Renewals' })).getByText(
        'No upcoming renewals.',
      ),
    ).toBeInTheDocument();
    expect(statValue('Total Documents')).toBe('0');

    const departments = screen.getByRole('region', { name: 'Business Departments' });
    await waitFor(() => expect(within(departments).getAllByRole('link')).toHaveLength(9));
    expect(
      within(departments)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Foster & Adopt', '/department/foster-adopt'],
      ['R/Kids', '/department/r-kids'],
      ['R/Youth', '/department/r-youth'],
      ['Creative Media', '/department/creative-media'],
      ['CGE', '/department/cge'],
      ['Sunday Production', '/department/sunday-production'],
      ['Worship', '/department/worship'],
      ['Elder Board', '/department/elder-board'],
      ['Deacon Board', '/department/deacon-board'],
    ]);

    const operations = screen.getByRole('region', { name: 'Business Operations' });
    expect(within(operations).getByRole('link', { name: 'Operations Center' })).toHaveAttribute(
      'href',
      '/operations',
    );
    expect(
      within(operations)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['HR Management', 'Financial Operations', 'Legal Compliance', 'IT & Technology']);

    expect(screen.getByText('Version').nextElementSibling).toHaveTextContent('2.1.0');
    expect(screen.getByText('Environment').nextElementSibling).toHaveTextContent('production');
  });
});
