import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { newClient, serviceClient, signUpUser } from '../../testing/backend.ts';
import { renderApp } from '../../testing/render.tsx';
import { PASSWORD_RESET_DONE, RESET_LINK_INVALID } from './reset-password-page.tsx';

// The first render loads the route's chunk and talks to a real backend on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

/** The link a reset e-mail carries, made by the real backend (GoTrue's admin generateLink). */
async function resetLinkFor(email: string): Promise<string> {
  const { data, error } = await serviceClient().auth.admin.generateLink({
    type: 'recovery',
    email,
  });
  if (error) throw error;
  return `/reset-password?token_hash=${data.properties.hashed_token}&type=recovery`;
}

async function signsIn(email: string, password: string): Promise<boolean> {
  const { error } = await newClient().auth.signInWithPassword({ email, password });
  return error === null;
}

describe('the reset password page', () => {
  it('sets a new password with the invitation rules, once per link', async () => {
    const user = userEvent.setup();
    const member = await signUpUser();
    const route = await resetLinkFor(member.email);
    const view = renderApp({ route });
    await screen.findByRole('heading', { name: 'Set a new password' });
    const submit = screen.getByRole('button', { name: 'Set New Password' });
    expect(submit).toBeDisabled();

    await user.type(screen.getByLabelText('New Password'), 'abc');
    await user.type(screen.getByLabelText('Confirm Password'), 'abd');
    await user.click(submit);
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('Confirm Password'), 'abc');
    await user.click(submit);
    expect(
      await screen.findByText('Password must be at least 6 characters long'),
    ).toBeInTheDocument();

    await user.clear(screen.getByLabelText('New Password'));
    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('New Password'), 'a new secret');
    await user.type(screen.getByLabelText('Confirm Password'), 'a new secret');
    await user.click(submit);
    expect(await screen.findByText(PASSWORD_RESET_DONE)).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/'));
    expect(await signsIn(member.email, 'a new secret')).toBe(true);
    expect(await signsIn(member.email, member.password)).toBe(false);
    view.unmount();

    // The same link again: used up.
    renderApp({ route });
    await screen.findByRole('heading', { name: 'Set a new password' });
    await user.type(screen.getByLabelText('New Password'), 'another secret');
    await user.type(screen.getByLabelText('Confirm Password'), 'another secret');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByRole('heading', { name: 'Invalid Link' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(RESET_LINK_INVALID);
    expect(await signsIn(member.email, 'a new secret')).toBe(true);
  });

  it('keeps the link usable when the server refuses the password', async () => {
    const user = userEvent.setup();
    const member = await signUpUser();
    renderApp({ route: await resetLinkFor(member.email) });
    await screen.findByRole('heading', { name: 'Set a new password' });
    // The same password as before: refused, and the next try needs no new link.
    await user.type(screen.getByLabelText('New Password'), member.password);
    await user.type(screen.getByLabelText('Confirm Password'), member.password);
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(
      await screen.findByText('New password should be different from the old password.'),
    ).toBeInTheDocument();
    await user.clear(screen.getByLabelText('New Password'));
    await user.clear(screen.getByLabelText('Confirm Password'));
    await user.type(screen.getByLabelText('New Password'), 'second try secret');
    await user.type(screen.getByLabelText('Confirm Password'), 'second try secret');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));
    expect(await screen.findByText(PASSWORD_RESET_DONE)).toBeInTheDocument();
    expect(await signsIn(member.email, 'second try secret')).toBe(true);
  });

  it('says so when the link is missing its token', async () => {
    renderApp({ route: '/reset-password' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid password reset link');
    expect(screen.getByRole('button', { name: 'Go to Login' })).toBeInTheDocument();
  });
});
