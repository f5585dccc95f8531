import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createOrganization,
  newClient,
  serviceClient,
  TEST_PASSWORD,
  uniqueEmail,
} from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { CONFIRMATION_LINK_INVALID, OTHER_LINK_NEEDED } from './confirm-email-page.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

// Only for GoTrue's answer to the first link of a secure e-mail change, which the test backend
// (no SMTP, so no confirmations) never gives; everything else reaches the real backend.
const network = setupServer();
beforeAll(() => network.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => network.resetHandlers());
afterAll(() => network.close());

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

  it('asks for the other link after the first of the two links of a change', async () => {
    const user = userEvent.setup();
    network.use(
      http.post(/\/auth\/v1\/verify/, () =>
        HttpResponse.json({
          msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email',
          code: '200',
        }),
      ),
    );
    renderApp({ route: '/confirm-email?token_hash=first-of-two&type=email_change' });
    await user.click(await screen.findByRole('button', { name: 'Confirm Email Change' }));
    expect(await screen.findByRole('status')).toHaveTextContent(OTHER_LINK_NEEDED);
  });

  it('says so when the link is incomplete', async () => {
    renderApp({ route: '/confirm-email?type=email_change' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid confirmation link');
  });
});
