import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { succeeded } from '../../lib/errors.ts';
import { addMember, createOrganization, uniqueEmail } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedDocuments, seedStoredDocument, serviceClient } from '../../testing/seed-documents.ts';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

describe('the Viewer role', { timeout: 60_000 }, () => {
  it('sees and downloads documents but is offered no change anywhere', async () => {
    const organization = await createOrganization();
    const viewer = await addMember(organization, 'viewer', 'Vera Viewer');
    await seedStoredDocument(
      organization,
      { name: 'Minutes.txt', category: 'Governance', expiry_date: '2030-01-01' },
      'minutes of the meeting',
    );
    renderApp({ client: viewer.client, route: '/documents' });

    const row = (
      await screen.findByText('Minutes.txt', { selector: '[data-document-name]' })
    ).closest('tr')!;
    // The row's menu offers View and Download, nothing that changes the document or sends it.
    await userEvent.click(within(row).getByRole('button', { name: 'Actions for Minutes.txt' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['View', 'Download']);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('link', { name: 'Upload Documents' })).not.toBeInTheDocument();

    // Selecting a document offers the download of the selection only.
    await userEvent.click(within(row).getByRole('checkbox', { name: 'Select Minutes.txt' }));
    const bar = screen.getByRole('region', { name: 'Selected documents' });
    expect(within(bar).getByRole('button', { name: 'Download ZIP' })).toBeInTheDocument();
    for (const action of ['Set Category', 'Add Tags', 'Delete']) {
      expect(within(bar).queryByRole('button', { name: action })).not.toBeInTheDocument();
    }

    // The preview offers Download, and its earlier versions no Restore.
    await userEvent.click(within(row).getByRole('button', { name: 'Actions for Minutes.txt' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'View' }));
    const preview = await screen.findByRole('dialog', { name: /Minutes\.txt/ });
    expect(within(preview).getByRole('button', { name: 'Download' })).toBeInTheDocument();
  });

  it('is told on the upload page, which the navigation leads to, that a Viewer cannot upload', async () => {
    const organization = await createOrganization();
    const viewer = await addMember(organization, 'viewer');
    renderApp({ client: viewer.client, route: '/' });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    // The dashboard offers no upload; the navigation's Upload explains.
    await screen.findByText('Total Documents');
    expect(screen.queryByRole('link', { name: 'Upload Documents' })).not.toBeInTheDocument();
    await userEvent.click(within(nav).getAllByRole('link', { name: 'Upload' })[0]!);
    expect(
      await screen.findByText(/Viewers can see and download documents but cannot upload them/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Upload/ })).not.toBeInTheDocument();
  });

  it('restores nothing from the trash', async () => {
    const organization = await createOrganization();
    const viewer = await addMember(organization, 'viewer');
    const [document] = await seedDocuments(organization, [{ name: 'Old.pdf' }]);
    await succeeded(
      organization.masterAdmin.client.rpc('delete_documents', { document_ids: [document!.id] }),
    );
    renderApp({ client: viewer.client, route: '/trash' });
    await screen.findByText('Old.pdf', { selector: 'p' });
    expect(screen.queryByRole('button', { name: 'Restore Old.pdf' })).not.toBeInTheDocument();
  });

  it('is offered by invitations, shown by its badge and chosen in the role select', async () => {
    const organization = await createOrganization();
    const viewer = await addMember(organization, 'viewer');
    const member = await addMember(organization, 'user');
    const user = userEvent.setup();
    renderApp({ client: organization.masterAdmin.client, route: '/users' });

    const viewerRow = await screen.findByRole('row', { name: new RegExp(viewer.email) });
    expect(within(viewerRow).getByRole('combobox', { name: /Role of/ })).toHaveValue('viewer');

    await user.selectOptions(
      within(screen.getByRole('row', { name: new RegExp(member.email) })).getByRole('combobox', {
        name: /Role of/,
      }),
      'viewer',
    );
    await waitFor(async () => {
      const { data } = await succeeded(
        serviceClient().from('user_profiles').select('role').eq('id', member.userId).single(),
      );
      expect(data.role).toBe('viewer');
    });

    await user.click(screen.getByRole('button', { name: 'Invite User' }));
    const dialog = screen.getByRole('dialog', { name: 'Invite User' });
    const email = uniqueEmail('viewer');
    await user.type(within(dialog).getByLabelText('Email address'), email);
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'viewer');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Send invitation by e-mail' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    await within(dialog).findByText('Invitation sent successfully!');
    const { data } = await succeeded(
      serviceClient().from('user_invitations').select('role').eq('email', email).single(),
    );
    expect(data.role).toBe('viewer');
  });

  it('is named Viewer on the badge an admin sees', async () => {
    const organization = await createOrganization();
    const admin = await addMember(organization, 'admin');
    const viewer = await addMember(organization, 'viewer');
    renderApp({ client: admin.client, route: '/users' });
    const row = await screen.findByRole('row', { name: new RegExp(viewer.email) });
    expect(within(row).getByText('Viewer')).toBeInTheDocument();
  });
});
