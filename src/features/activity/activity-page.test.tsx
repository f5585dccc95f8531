import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedDocuments } from '../../testing/seed-documents.ts';

const PAGE = { timeout: 10_000 };

describe('activity page', () => {
  it('shows admins a role change by name, and filters by kind and person', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user', 'Ruth Volunteer');
    const { error } = await organization.masterAdmin.client.rpc('update_user_role', {
      user_id: member.userId,
      new_role: 'admin',
    });
    if (error) throw new Error(error.message);
    await seedDocuments(organization, [{ name: 'Budget.xlsx' }]);
    const user = userEvent.setup();
    renderApp({ client: organization.masterAdmin.client, route: '/activity' });

    const list = await screen.findByRole('list', { name: 'Activity' }, PAGE);
    const change = await within(list).findByText('Changed the role of Ruth Volunteer');
    const entry = change.closest('li')!;
    expect(entry).toHaveTextContent('role: User → Admin');
    expect(entry).toHaveTextContent(organization.masterAdmin.email);
    expect(within(list).getByText('Uploaded "Budget.xlsx"')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Kind'), 'document');
    await waitFor(() =>
      expect(screen.queryByText('Changed the role of Ruth Volunteer')).not.toBeInTheDocument(),
    );
    expect(screen.getByText('Uploaded "Budget.xlsx"')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Kind'), '');
    // Ruth's own entries: she accepted her invitation; the master admin changed her role.
    await user.selectOptions(screen.getByLabelText('Person'), 'Ruth Volunteer');
    expect(await screen.findByText(/accepted the invitation as User$/)).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByText('Changed the role of Ruth Volunteer')).not.toBeInTheDocument(),
    );
    await user.selectOptions(screen.getByLabelText('Kind'), 'settings');
    expect(await screen.findByText('No activity found.')).toBeInTheDocument();
  });

  it('is for admins only', async () => {
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    renderApp({ client: member.client, route: '/activity' });
    expect(
      await screen.findByText(
        'Access Restricted: You need admin privileges to read the activity.',
        {},
        PAGE,
      ),
    ).toBeInTheDocument();
  });

  it(
    'lets admins export the organisation, download it, and shows why an import was refused',
    { timeout: 90_000 },
    async () => {
      const organization = await createOrganization();
      await seedDocuments(organization, [{ name: 'Budget.xlsx' }]);
      const user = userEvent.setup();
      renderApp({ client: organization.masterAdmin.client, route: '/activity' });

      const panel = await screen.findByRole('region', { name: 'Export & import' }, PAGE);
      await user.click(within(panel).getByRole('button', { name: 'Start export' }));
      expect(
        await within(panel).findByText(/^Export ready: 1 document, /, {}, { timeout: 60_000 }),
      ).toBeInTheDocument();
      expect(within(panel).getByRole('button', { name: 'Download' })).toBeEnabled();

      await user.upload(
        within(panel).getByLabelText('ZIP to import'),
        new File(['not a zip at all'], 'other.zip', { type: 'application/zip' }),
      );
      await user.click(within(panel).getByRole('button', { name: 'Import' }));
      expect(
        await within(panel).findByText(
          'The import failed: The file is not a valid ZIP archive. Nothing was imported.',
          {},
          { timeout: 30_000 },
        ),
      ).toBeInTheDocument();
    },
  );
});
