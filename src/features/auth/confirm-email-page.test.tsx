import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganization,
  newClient,
  serviceClient,
  TEST_PASSWORD,
  uniqueEmail,
} from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { CONFIRMATION_LINK_INVALID } from './confirm-email-page.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

async function signsIn(email: string, password: string): Promise<boolean> {
  const { error } = await newClient().auth.signInWithPassword({ email, password });
  return error === null;
}

describe('the confirm email page', () => {
  it('changes the address when the button is pressed, once per link', async () => {
    const user = userEvent.setup();
    const organization = await createOrganization();
    const member = await addMember(organization, 'user');
    const newEmail = uniqueEmail('moved');
    const { data, error } = await serviceClient().auth.admin.generateLink({
      type: 'email_change_new',
      email: member.email,
      newEmail,
    });
    if (error) throw error;
    const route = `/confirm-email?token_hash=${data.properties.hashed_token}&type=email_change`;
    const view = renderApp({ route });
    await user.click(await screen.findByRole('button', { name: 'Confirm Email Change' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      `Your email address is now ${newEmail}.`,
    );
    expect(await signsIn(newEmail, TEST_PASSWORD)).toBe(true);
    view.unmount();

    renderApp({ route });
    await user.click(await screen.findByRole('button', { name: 'Confirm Email Change' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CONFIRMATION_LINK_INVALID);
  });

  it('says so when the link is incomplete', async () => {
    renderApp({ route: '/confirm-email?type=email_change' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid confirmation link');
  });
});
