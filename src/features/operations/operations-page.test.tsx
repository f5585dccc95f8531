import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedDocuments } from '../../testing/seed-documents.ts';
import { builtInIntegrationCount } from './lib/integration-view.ts';

const slow = { timeout: 8000 };

function statValue(label: string): string | null {
  return screen.getByText(label, { selector: 'p' }).nextElementSibling?.textContent ?? null;
}

describe('Operations Center', { timeout: 60_000 }, () => {
  it('shows the live figures and full access to an administrator', async () => {
    const organization = await createOrganization();
    await seedDocuments(organization, [{ name: 'a.pdf' }, { name: 'b.pdf' }, { name: 'c.pdf' }]);
    const { error } = await organization.masterAdmin.client
      .from('custom_integrations')
      .insert({ organization_id: organization.organizationId, operations_category: 'hr' });
    expect(error).toBeNull();

    renderApp({ client: organization.masterAdmin.client, route: '/operations' });
    expect(await screen.findByRole('heading', { name: 'Operations Center' }, slow)).toBeVisible();
    expect(statValue('Total Operations')).toBe('9');
    await screen.findByText(String(builtInIntegrationCount() + 1), {}, slow);
    expect(statValue('Active Integrations')).toBe(String(builtInIntegrationCount() + 1));
    expect(statValue('Documents')).toBe('3');
    expect(statValue('Access Level')).toBe('Admin');

    const note = screen.getByRole('region', { name: 'Access Management' });
    expect(note).toHaveTextContent(
      'Access to operations tools is managed by your organization’s administrators.',
    );
    expect(within(note).getByText('Current Role').nextElementSibling).toHaveTextContent(
      'Administrator',
    );
    expect(within(note).getByText('Access Level').nextElementSibling).toHaveTextContent(
      'Full Access',
    );
  });

  it('shows restricted access to an ordinary member and counts only their organisation', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const other = await createOrganization();
    await seedDocuments(other, [{ name: 'elsewhere.pdf' }]);
    await other.masterAdmin.client
      .from('custom_integrations')
      .insert({ organization_id: other.organizationId, operations_category: 'it' });

    renderApp({ client: member.client, route: '/operations' });
    await screen.findByRole('heading', { name: 'Operations Center' }, slow);
    await screen.findByText(String(builtInIntegrationCount()), {}, slow);
    expect(statValue('Active Integrations')).toBe(String(builtInIntegrationCount()));
    expect(statValue('Documents')).toBe('0');
    expect(statValue('Access Level')).toBe('User');
    const note = screen.getByRole('region', { name: 'Access Management' });
    expect(within(note).getByText('Current Role').nextElementSibling).toHaveTextContent('User');
    expect(within(note).getByText('Access Level').nextElementSibling).toHaveTextContent(
      'Restricted Access',
    );
  });

  it('offers the nine operations tiles, each opening its category page', async () => {
    const organization = await createOrganization();
    renderApp({ client: organization.masterAdmin.client, route: '/operations' });
    const tiles = within(await screen.findByRole('list', { name: 'Operations categories' }, slow))
      .getAllByRole('link')
      .map((link) => [
        link.getAttribute('data-category-id'),
        link.querySelector('span > span')?.textContent,
        link.getAttribute('href'),
      ]);
    expect(tiles).toEqual([
      ['hr', 'HR', '/operations/hr'],
      ['accounting', 'Accounting', '/operations/accounting'],
      ['legal', 'Legal', '/operations/legal'],
      ['branding', 'Branding', '/operations/branding'],
      ['social-media', 'Social Media', '/operations/social-media'],
      ['communications', 'Communications', '/operations/communications'],
      ['volunteer-management', 'Volunteer/People Management', '/operations/volunteer-management'],
      ['streaming', 'Streaming: Video & Podcast', '/operations/streaming'],
      ['it', 'IT & Technology', '/operations/it'],
    ]);
  });
});
