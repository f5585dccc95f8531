import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addMember, createOrganization } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedStoredDocument, serviceClient } from '../../testing/seed-documents.ts';

const PAGE = { timeout: 10_000 };

/** Stored documents of a new organisation, deleted (moved to the trash) by its master admin. */
async function trashed(names: string[]) {
  const organization = await createOrganization();
  const documents = [];
  for (const name of names) {
    documents.push(await seedStoredDocument(organization, { name }, `content of ${name}`));
  }
  const { error } = await organization.masterAdmin.client.rpc('delete_documents', {
    document_ids: documents.map((d) => d.id),
  });
  if (error) throw new Error(error.message);
  return { organization, documents };
}

const entry = (name: string) =>
  screen.getByText(name, { selector: 'p' }).closest('li') as HTMLElement;

const stateOf = async (id: string) => {
  const { data } = await serviceClient()
    .from('documents')
    .select('deleted_at')
    .eq('id', id)
    .maybeSingle();
  return data === null ? 'gone' : data.deleted_at === null ? 'in use' : 'trash';
};

describe('trash page', () => {
  it('lets a member restore a deleted document, and shows who deleted it', async () => {
    const { organization, documents } = await trashed(['Old lease.pdf']);
    const member = await addMember(organization, 'user');
    const user = userEvent.setup();
    renderApp({ client: member.client, route: '/trash' });

    await screen.findByText('Old lease.pdf', {}, PAGE);
    expect(entry('Old lease.pdf')).toHaveTextContent(
      `Deleted by ${organization.masterAdmin.email}`,
    );
    expect(entry('Old lease.pdf')).toHaveTextContent('Deleted for ever on');
    // Members restore; deleting for ever and emptying are for admins.
    expect(screen.queryByRole('button', { name: 'Empty trash' })).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Delete Old lease.pdf for ever' }),
    ).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Restore Old lease.pdf' }));
    expect(await screen.findByText('The trash is empty.')).toBeInTheDocument();
    expect(await stateOf(documents[0]!.id)).toBe('in use');
  });

  it('lets an admin delete one document for ever after a confirmation, then empty the trash', async () => {
    const { organization, documents } = await trashed(['a.txt', 'b.txt', 'c.txt']);
    const user = userEvent.setup();
    renderApp({ client: organization.masterAdmin.client, route: '/trash' });
    await screen.findByText('a.txt', {}, PAGE);

    await user.click(screen.getByRole('button', { name: 'Delete a.txt for ever' }));
    let confirm = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete "a.txt" for ever?');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(await stateOf(documents[0]!.id)).toBe('trash');

    await user.click(screen.getByRole('button', { name: 'Delete a.txt for ever' }));
    confirm = await screen.findByRole('dialog', { name: 'Please confirm' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete for ever' }));
    await waitFor(() => expect(screen.queryByText('a.txt')).not.toBeInTheDocument());
    expect(await stateOf(documents[0]!.id)).toBe('gone');

    await user.click(screen.getByRole('button', { name: 'Empty trash' }));
    confirm = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(confirm).toHaveTextContent(
      'Are you sure you want to delete all 2 documents in the trash for ever?',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Delete for ever' }));
    expect(await screen.findByText('The trash is empty.')).toBeInTheDocument();
    expect(await stateOf(documents[1]!.id)).toBe('gone');
    expect(await stateOf(documents[2]!.id)).toBe('gone');
  });
});
