import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { signUpUser } from '../../../testing/backend.ts';
import { findNotice } from '../../../testing/notices.ts';
import { renderApp } from '../../../testing/render.tsx';
import { watchBusyButton } from '../../../testing/busy-label.ts';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

describe('the organisation set-up screen', () => {
  it('creates the organisation; the creator becomes Master Admin at once', async () => {
    const user = userEvent.setup();
    const founder = await signUpUser();
    renderApp({ client: founder.client, route: '/users' });

    expect(
      await screen.findByRole('heading', { name: 'Set up your organization' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/master administrator/)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByText('User')).toBeInTheDocument();

    const create = screen.getByRole('button', { name: 'Create Organization' });
    expect(create).toBeDisabled();
    // A name of spaces only is not submitted.
    await user.type(screen.getByLabelText('Organization Name'), '   ');
    expect(create).toBeDisabled();

    await user.type(screen.getByLabelText('Organization Name'), 'Grace Chapel  ');
    const busy = await watchBusyButton('Creating organization...', () => user.click(create));
    expect(busy).toEqual({ seen: true, alwaysDisabled: true });

    expect(await screen.findByRole('heading', { name: 'User Management' })).toBeInTheDocument();
    await waitFor(() => expect(within(nav).getByText('Master Admin')).toBeInTheDocument());
    expect(within(nav).getByRole('link', { name: 'Users' })).toBeInTheDocument();

    const { data } = await founder.client
      .from('user_profiles')
      .select('role, organization:organizations(name)')
      .eq('id', founder.userId)
      .single();
    expect(data).toEqual({ role: 'master_admin', organization: { name: 'Grace Chapel' } });
  });

  it('says "Failed to create organization: …" when the server refuses', async () => {
    const user = userEvent.setup();
    const founder = await signUpUser();
    renderApp({ client: founder.client, route: '/users' });
    await user.type(await screen.findByLabelText('Organization Name'), 'Second Church');
    // Meanwhile, in another tab, the same person already created an organisation.
    const { error } = await founder.client.rpc('create_organization', { name: 'First Church' });
    expect(error).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Create Organization' }));
    expect(
      await findNotice('Failed to create organization: User already belongs to an organization'),
    ).toBeInTheDocument();
    // The name typed stays, to try again.
    expect(screen.getByRole('button', { name: 'Create Organization' })).toBeEnabled();
    expect(screen.getByLabelText('Organization Name')).toHaveValue('Second Church');
  });
});
