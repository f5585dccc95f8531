import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganization,
  newClient,
  TEST_PASSWORD,
  uniqueEmail,
} from '../../../testing/backend.ts';
import type { AppSupabaseClient } from '../../../lib/supabase.ts';
import { renderApp } from '../../../testing/render.tsx';
import { WRONG_CURRENT_PASSWORD } from '../api/account.ts';
import { OTHER_SESSIONS_SIGNED_OUT, PASSWORD_CHANGED } from './account-security.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

const nav = () => screen.getByRole('navigation', { name: 'Main' });
const toasts = () => screen.getByRole('log', { name: 'Notifications' });

async function openProfile(client: AppSupabaseClient) {
  renderApp({ client, route: '/' });
  await screen.findByRole('navigation', { name: 'Main' });
  await userEvent.click(await within(nav()).findByRole('button', { name: 'Edit profile' }));
  return screen.findByRole('dialog', { name: 'Your profile' });
}

async function signsIn(email: string, password: string): Promise<boolean> {
  const { error } = await newClient().auth.signInWithPassword({ email, password });
  return error === null;
}

describe('your account in the profile dialog', () => {
  // Typing three passwords in jsdom on a shared machine takes a while.
  it('changes the password only with the current one', { timeout: 60_000 }, async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const dialog = await openProfile(member.client);
    const form = within(within(dialog).getByRole('form', { name: 'Change password' }));
    const submit = form.getByRole('button', { name: 'Change Password' });
    expect(submit).toBeDisabled();

    await user.type(form.getByLabelText('Current Password'), 'wrong1');
    await user.type(form.getByLabelText('New Password'), 'secret2');
    await user.type(form.getByLabelText('Confirm New Password'), 'secret2X');
    await user.click(submit);
    expect(await form.findByText('Passwords do not match')).toBeInTheDocument();
    // Under its field, which takes the focus.
    expect(form.getByLabelText('Confirm New Password')).toHaveAccessibleDescription(
      'Passwords do not match',
    );
    expect(form.getByLabelText('Confirm New Password')).toHaveFocus();

    await user.clear(form.getByLabelText('Confirm New Password'));
    await user.type(form.getByLabelText('Confirm New Password'), 'secret2');
    await user.click(submit);
    expect(await form.findByText(WRONG_CURRENT_PASSWORD)).toBeInTheDocument();
    expect(form.getByLabelText('Current Password')).toHaveAccessibleDescription(
      WRONG_CURRENT_PASSWORD,
    );
    expect(form.getByLabelText('Current Password')).toHaveFocus();
    expect(await signsIn(member.email, TEST_PASSWORD)).toBe(true);

    await user.clear(form.getByLabelText('Current Password'));
    await user.type(form.getByLabelText('Current Password'), TEST_PASSWORD);
    await user.click(submit);
    await waitFor(() => expect(within(toasts()).getByText(PASSWORD_CHANGED)).toBeInTheDocument());
    expect(form.getByLabelText('Current Password')).toHaveValue('');
    expect(await signsIn(member.email, 'secret2')).toBe(true);
    expect(await signsIn(member.email, TEST_PASSWORD)).toBe(false);
  });

  it('signs out the other sessions and keeps this one', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const elsewhere = newClient();
    await elsewhere.auth.signInWithPassword({ email: member.email, password: TEST_PASSWORD });
    const dialog = await openProfile(member.client);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out other sessions' }));
    await waitFor(() =>
      expect(within(toasts()).getByText(OTHER_SESSIONS_SIGNED_OUT)).toBeInTheDocument(),
    );
    expect((await elsewhere.auth.getUser()).error).not.toBeNull();
    expect((await member.client.auth.getUser()).error).toBeNull();
  });

  it('asks for a new address, and says why when it cannot be confirmed here', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const dialog = await openProfile(member.client);
    const form = within(within(dialog).getByRole('form', { name: 'Change email' }));
    await user.type(form.getByLabelText('New email address'), uniqueEmail('new'));
    await user.click(form.getByRole('button', { name: 'Change Email' }));
    // The test backend has no SMTP server, so no confirmation link can reach the new address.
    expect(await form.findByRole('alert')).toHaveTextContent(
      'Changing the email address needs e-mail delivery (SMTP), which is not set up',
    );
  });
});
