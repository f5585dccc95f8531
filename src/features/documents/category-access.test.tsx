import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { succeeded } from '../../lib/errors.ts';
import { addMember, createOrganization, type TestOrganization } from '../../testing/backend.ts';
import { notices } from '../../testing/notices.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedDocuments } from '../../testing/seed-documents.ts';

const PAGE = { timeout: 10_000 };
/** The row actions that change a document. */
const CHANGES = ['Edit Properties', 'Edit Content', 'Renew', 'Upload new version', 'Delete'];

/**
 * An organisation whose HR is restricted to the group Staff (view only), whose Reports is
 * retired, with Anna in Staff and Carl in no group, and one document in HR.
 */
async function restrictedOrganization() {
  const organization = await createOrganization();
  const anna = await addMember(organization, 'user', 'Anna Smith');
  const carl = await addMember(organization, 'user', 'Carl Brown');
  const admin = organization.masterAdmin.client;
  const categories = (await succeeded(admin.rpc('my_document_categories'))).data;
  const id = (name: string) => categories.find((category) => category.name === name)!.id;
  const { data: staff } = await succeeded(admin.rpc('create_member_group', { name: 'Staff' }));
  await succeeded(
    admin.rpc('set_member_group_members', { group_id: staff, user_ids: [anna.userId] }),
  );
  await succeeded(
    admin.rpc('set_category_access', {
      category_id: id('HR'),
      restricted: true,
      rules: [{ group_id: staff, access: 'view' }],
    }),
  );
  await seedDocuments(organization, [
    { name: 'Payroll 2026.xlsx', category: 'HR' },
    { name: 'Annual report.pdf', category: 'Reports' },
  ]);
  await succeeded(admin.rpc('retire_document_category', { category_id: id('Reports') }));
  return { organization, anna, carl };
}

const optionsOf = (select: HTMLElement) =>
  within(select)
    .getAllByRole('option')
    .map((option) => option.textContent);

async function categoryOptions(label: RegExp | string) {
  const select = await screen.findByRole('combobox', { name: label }, PAGE);
  // The organisation's list arrives after the page.
  await waitFor(() => expect(optionsOf(select).length).toBeGreaterThan(5));
  return optionsOf(select);
}

describe('categories in pickers and filters', { timeout: 60_000 }, () => {
  it('offers an upload only the categories in use that the member may upload into', async () => {
    const { anna } = await restrictedOrganization();
    renderApp({ client: anna.client, route: '/upload' });
    const offered = await categoryOptions(/Category/);
    expect(offered).toContain('Accounting');
    // HR: Anna may only view it. Reports: retired.
    expect(offered).not.toContain('HR');
    expect(offered).not.toContain('HR (Restricted)');
    expect(offered).not.toContain('Reports');
  });

  it('filters by what the member may view, marking restricted categories and their documents', async () => {
    const { anna } = await restrictedOrganization();
    const user = userEvent.setup();
    renderApp({ client: anna.client, route: '/documents' });
    const offered = await categoryOptions('Filter by category');
    expect(offered).toContain('HR (Restricted)');
    // A retired category's documents keep it, so the filter still finds them.
    expect(offered).toContain('Reports');

    const payroll = (
      await screen.findByText('Payroll 2026.xlsx', { selector: '[data-document-name]' }, PAGE)
    ).closest('tr')!;
    expect(within(payroll).getByRole('img', { name: 'Restricted' })).toBeInTheDocument();
    expect(within(payroll).getByText('HR')).toBeInTheDocument();
    // Anna views HR but may not change it: View, Download and Email only.
    await user.click(
      within(payroll).getByRole('button', { name: 'Actions for Payroll 2026.xlsx' }),
    );
    const menu = await screen.findByRole('menu');
    const actions = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent);
    expect(actions).toEqual(expect.arrayContaining(['View', 'Download']));
    for (const action of CHANGES) expect(actions).not.toContain(action);
    await user.keyboard('{Escape}');
    const report = screen
      .getByText('Annual report.pdf', { selector: '[data-document-name]' })
      .closest('tr')!;
    expect(within(report).getByText('Reports')).toBeInTheDocument();
    expect(within(report).queryByRole('img', { name: 'Restricted' })).not.toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by category' }), 'HR');
    const filter = screen.getByRole('combobox', { name: 'Filter by category' });
    expect(
      within(filter.parentElement!).getByRole('img', { name: 'Restricted' }),
    ).toBeInTheDocument();
  });

  it('does not offer a member in no group the restricted category', async () => {
    const { carl } = await restrictedOrganization();
    renderApp({ client: carl.client, route: '/documents' });
    const offered = await categoryOptions('Filter by category');
    expect(offered).not.toContain('HR (Restricted)');
    expect(offered).not.toContain('HR');
    expect(offered).toContain('Accounting');
  });

  it('says so when the server refuses an upload into a category closed meanwhile', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const user = userEvent.setup();
    renderApp({ client: member.client, route: '/upload' });
    await categoryOptions(/Category/);
    await user.upload(screen.getByLabelText('Choose files to upload'), [
      new File(['salaries'], 'salaries.pdf', { type: 'application/pdf' }),
    ]);
    await user.selectOptions(screen.getByRole('combobox', { name: /Category/ }), 'Legal');
    // The master admin restricts Legal to nobody while the form is open.
    const admin = organization.masterAdmin.client;
    const categories = (await succeeded(admin.rpc('my_document_categories'))).data;
    await succeeded(
      admin.rpc('set_category_access', {
        category_id: categories.find((category) => category.name === 'Legal')!.id,
        restricted: true,
        rules: [],
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Upload Documents' }));
    expect(
      await within(notices()).findByText(/You do not have access to this category/, {}, PAGE),
    ).toBeInTheDocument();
  });

  it('offers a new category in the upload form once an admin has added it', async () => {
    const organization: TestOrganization = await createOrganization();
    await succeeded(
      organization.masterAdmin.client.rpc('create_document_category', { name: 'Safeguarding' }),
    );
    renderApp({ client: organization.masterAdmin.client, route: '/upload' });
    expect(await categoryOptions(/Category/)).toContain('Safeguarding');
  });
});
