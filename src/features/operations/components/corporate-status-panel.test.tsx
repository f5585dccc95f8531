import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../../../lib/format.ts';
import { addMember, createOrganization } from '../../../testing/backend.ts';
import { renderApp } from '../../../testing/render.tsx';

const slow = { timeout: 8000 };
const day = (offset: number) => format(addDays(new Date(), offset), 'yyyy-MM-dd');

async function panel() {
  const heading = await screen.findByRole('heading', { name: 'Corporate Status Dashboard' }, slow);
  const region = heading.closest('section')!;
  await waitFor(() => expect(within(region).queryByRole('status')).not.toBeInTheDocument(), slow);
  return region;
}

function field(region: HTMLElement, label: string) {
  return within(region).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe('Corporate Status Dashboard', { timeout: 60_000 }, () => {
  it('shows a member the empty status read-only with the state portal links', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    renderApp({ client: member.client, route: '/operations/legal' });
    const region = await panel();

    expect(field(region, 'Entity Name')).toBe('Not set');
    expect(field(region, 'Next Due Date')).toBe('Not setFiling: Unknown');
    expect(field(region, 'Last Updated')).toBe('Never');
    expect(within(region).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'Edit Status' })).not.toBeInTheDocument();

    const portal = within(region).getByRole('link', {
      name: /State Corporation Commission Portal/,
    });
    expect(portal).toHaveAttribute('href', 'https://cis.scc.virginia.gov');
    expect(portal).toHaveAttribute('target', '_blank');
    expect(portal).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(region).getByRole('link', { name: /Entity Search/ })).toHaveAttribute(
      'href',
      'https://cis.scc.virginia.gov/EntitySearch/Index',
    );
  });

  it('lets an admin edit the status for the whole organisation, with the due-soon banner', async () => {
    const organization = await createOrganization();
    const admin = await addMember(organization, 'admin');
    const member = await addMember(organization, 'user');
    const user = userEvent.setup({ delay: null });
    const view = renderApp({ client: admin.client, route: '/operations/legal' });
    const region = await panel();

    await user.click(within(region).getByRole('button', { name: 'Edit Status' }));
    await user.type(within(region).getByLabelText('Entity Name'), 'Grace Community Church');
    await user.selectOptions(
      within(region).getByLabelText('Entity Type'),
      'Non-Profit Corporation',
    );
    expect(
      within(within(region).getByLabelText('Entity Type'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Not set', 'Non-Profit Corporation', 'Corporation', 'LLC', 'Partnership', 'Other']);
    expect(
      within(within(region).getByLabelText('Status'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Not set', 'Active', 'Inactive', 'Suspended', 'Unknown']);
    expect(
      within(within(region).getByLabelText('Annual Report Status'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Not set', 'Current', 'Due Soon', 'Overdue', 'Unknown']);
    await user.selectOptions(within(region).getByLabelText('Status'), 'Active');
    await user.selectOptions(within(region).getByLabelText('Annual Report Status'), 'Due Soon');
    await user.type(within(region).getByLabelText('Filing Date'), '2024-03-01');
    await user.type(within(region).getByLabelText('Next Due Date'), day(10));
    await user.click(within(region).getByRole('button', { name: 'Save Status' }));

    const banner = await within(region).findByRole('alert', {}, slow);
    expect(banner).toHaveTextContent('Filing Due Soon');
    expect(banner).toHaveTextContent(formatDate(day(10)));
    expect(field(region, 'Entity Name')).toBe('Grace Community Church');
    expect(field(region, 'Entity Type')).toBe('Non-Profit Corporation');
    expect(field(region, 'Filing Date')).toBe('Mar 01, 2024');
    view.unmount();

    renderApp({ client: member.client, route: '/operations/legal' });
    const memberRegion = await panel();
    expect(field(memberRegion, 'Entity Name')).toBe('Grace Community Church');
    expect(field(memberRegion, 'Status')).toBe('Active');
    expect(field(memberRegion, 'Annual Report Status')).toBe('Due Soon');
    expect(within(memberRegion).getByRole('alert')).toHaveTextContent('Filing Due Soon');
    expect(field(memberRegion, 'Last Updated')).not.toBe('Never');
  });

  it.each([
    [-1, 'Filing Overdue!', 'Overdue'],
    [0, 'Filing Due Soon', 'Due Soon'],
    [30, 'Filing Due Soon', 'Due Soon'],
    [31, null, 'Current'],
  ])('shows the filing state for a due date %i days from today', async (offset, banner, badge) => {
    const organization = await createOrganization();
    const saved = await organization.masterAdmin.client
      .from('corporate_status')
      .insert({ organization_id: organization.organizationId, next_due_date: day(offset) });
    expect(saved.error).toBeNull();
    renderApp({ client: organization.masterAdmin.client, route: '/operations/legal' });
    const region = await panel();
    if (banner) expect(within(region).getByRole('alert')).toHaveTextContent(banner);
    else expect(within(region).queryByRole('alert')).not.toBeInTheDocument();
    expect(field(region, 'Next Due Date')).toBe(`${formatDate(day(offset))}Filing: ${badge}`);
  });

  it('does not show another organisation’s corporate status', async () => {
    const organization = await createOrganization();
    await organization.masterAdmin.client.from('corporate_status').insert({
      organization_id: organization.organizationId,
      entity_name: 'Hidden Church Inc.',
    });
    const other = await createOrganization();
    renderApp({ client: other.masterAdmin.client, route: '/operations/legal' });
    const region = await panel();
    expect(field(region, 'Entity Name')).toBe('Not set');
  });
});
