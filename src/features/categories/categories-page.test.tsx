import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { succeeded } from '../../lib/errors.ts';
import type { AppSupabaseClient } from '../../lib/supabase.ts';
import { addMember, createOrganization } from '../../testing/backend.ts';
import { findNotice } from '../../testing/notices.ts';
import { renderApp } from '../../testing/render.tsx';

const PAGE = { timeout: 10_000 };

/** The organisation's categories as the database keeps them, in order. */
async function categoriesOf(client: AppSupabaseClient) {
  const { data } = await succeeded(client.rpc('my_document_categories'));
  return data;
}

const row = (name: string) =>
  within(screen.getByRole('list', { name: 'Categories' }))
    .getByText(name, { exact: true })
    .closest('li') as HTMLElement;

// Each test signs up its people and walks through several dialogs on a shared, busy machine.
describe('categories page', { timeout: 60_000 }, () => {
  it('lets an admin add, rename, reorder, retire and bring back a category', async () => {
    const organization = await createOrganization();
    const admin = await addMember(organization, 'admin');
    const user = userEvent.setup();
    renderApp({ client: admin.client, route: '/categories' });

    // The specification's 14 are the starting list, in its order.
    const list = await screen.findByRole('list', { name: 'Categories' }, PAGE);
    const names = within(list)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('p span')?.textContent);
    expect(names.slice(0, 3)).toEqual(['HR', 'Accounting', 'Branding']);
    expect(names).toHaveLength(14);
    expect(row('HR')).toHaveTextContent('Open to every member');

    await user.type(screen.getByRole('textbox', { name: 'New category' }), 'Safeguarding');
    await user.click(screen.getByRole('button', { name: 'Add Category' }));
    await findNotice('Category "Safeguarding" added');
    await screen.findByText('Safeguarding', { exact: true });
    expect((await categoriesOf(admin.client)).at(-1)?.name).toBe('Safeguarding');

    // An empty name is refused under the field, before anything is sent.
    await user.click(screen.getByRole('button', { name: 'Add Category' }));
    expect(await screen.findByText('Please enter a name.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Rename Safeguarding' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename Safeguarding' });
    const field = within(rename).getByRole('textbox', { name: /Category name/ });
    await user.clear(field);
    await user.type(field, 'Safeguarding records');
    await user.click(within(rename).getByRole('button', { name: 'Save' }));
    await screen.findByText('Safeguarding records', { exact: true });
    expect((await categoriesOf(admin.client)).at(-1)?.name).toBe('Safeguarding records');

    await user.click(screen.getByRole('button', { name: 'Move Safeguarding records up' }));
    await waitFor(async () =>
      expect((await categoriesOf(admin.client)).at(-2)?.name).toBe('Safeguarding records'),
    );
    expect(screen.getByRole('button', { name: 'Move HR up' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Retire Safeguarding records' }));
    await findNotice('Category "Safeguarding records" retired');
    expect(row('Safeguarding records')).toHaveTextContent('Retired');
    expect(
      (await categoriesOf(admin.client)).find((c) => c.name === 'Safeguarding records')?.retired,
    ).toBe(true);

    await user.click(
      await screen.findByRole('button', { name: 'Bring back Safeguarding records' }),
    );
    await findNotice('Category "Safeguarding records" is back in use');
    expect(
      (await categoriesOf(admin.client)).find((c) => c.name === 'Safeguarding records')?.retired,
    ).toBe(false);
  });

  it('shows the server’s refusal of a name already in use', async () => {
    const organization = await createOrganization();
    const user = userEvent.setup();
    renderApp({ client: organization.masterAdmin.client, route: '/categories' });
    await user.type(await screen.findByRole('textbox', { name: 'New category' }, PAGE), 'Legal');
    await user.click(screen.getByRole('button', { name: 'Add Category' }));
    expect(
      await findNotice('Failed to add the category: A category with this name already exists'),
    ).toBeInTheDocument();
  });

  it('lets a master admin make groups and restrict HR to Staff (view) and Finance team (edit)', async () => {
    const organization = await createOrganization();
    const anna = await addMember(organization, 'user', 'Anna Smith');
    const ben = await addMember(organization, 'user', 'Ben Jones');
    const user = userEvent.setup();
    renderApp({ client: organization.masterAdmin.client, route: '/categories' });
    await screen.findByRole('list', { name: 'Categories' }, PAGE);

    await user.click(screen.getByRole('tab', { name: 'Groups' }));
    expect(await screen.findByText('No groups yet.')).toBeInTheDocument();
    for (const name of ['Staff', 'Finance team']) {
      await user.type(screen.getByRole('textbox', { name: 'New group' }), name);
      await user.click(screen.getByRole('button', { name: 'Add Group' }));
      await findNotice(`Group "${name}" added`);
    }
    await user.click(await screen.findByRole('button', { name: 'Members of Staff' }));
    let dialog = await screen.findByRole('dialog', { name: 'Members of Staff' });
    await user.click(within(dialog).getByRole('checkbox', { name: /Anna Smith/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Members' }));
    await findNotice('Members of "Staff" saved');
    await user.click(screen.getByRole('button', { name: 'Members of Finance team' }));
    dialog = await screen.findByRole('dialog', { name: 'Members of Finance team' });
    await user.click(within(dialog).getByRole('checkbox', { name: /Ben Jones/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Members' }));
    await findNotice('Members of "Finance team" saved');
    expect(await screen.findByText('1 member: Anna Smith')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Categories' }));
    await user.click(await screen.findByRole('button', { name: 'Access to HR' }));
    dialog = await screen.findByRole('dialog', { name: 'Access to HR' });
    await user.click(within(dialog).getByRole('radio', { name: /Restricted/ }));
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Access of Staff' }),
      'view',
    );
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Access of Finance team' }),
      'edit',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save Access' }));
    await findNotice('Access to "HR" saved');

    await waitFor(() =>
      expect(row('HR')).toHaveTextContent('Restricted: Finance team (edit), Staff (view)'),
    );
    expect(within(row('HR')).getByRole('img', { name: 'Restricted' })).toBeInTheDocument();
    // What each member may do now, as the database answers it.
    const hrFor = async (client: AppSupabaseClient) =>
      (await categoriesOf(client)).find((category) => category.name === 'HR');
    expect(await hrFor(anna.client)).toMatchObject({ can_view: true, can_edit: false });
    expect(await hrFor(ben.client)).toMatchObject({ can_view: true, can_edit: true });
  });

  it('shows an admin the access of a category read-only, with a note', async () => {
    const organization = await createOrganization();
    const admin = await addMember(organization, 'admin');
    const user = userEvent.setup();
    renderApp({ client: admin.client, route: '/categories' });
    await user.click(await screen.findByRole('button', { name: 'Access to HR' }, PAGE));
    const dialog = await screen.findByRole('dialog', { name: 'Access to HR' });
    expect(dialog).toHaveTextContent('Only master admins can change who may see a category.');
    expect(within(dialog).getByRole('radio', { name: /Restricted/ })).toBeDisabled();
    expect(within(dialog).queryByRole('button', { name: 'Save Access' })).not.toBeInTheDocument();
  });

  it('is for admins: a user is told so, and the navigation offers it to admins only', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    renderApp({ client: member.client, route: '/categories' });
    expect(
      await screen.findByText(
        'Access Restricted: You need admin privileges to manage categories.',
        {},
        PAGE,
      ),
    ).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Categories' })).not.toBeInTheDocument();
  });
});
