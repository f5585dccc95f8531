import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { expect, it } from 'vitest';
import { WelcomePanel } from './welcome-panel.tsx';

it('welcomes a user without an organisation and leads to /users to set one up', async () => {
  const user = userEvent.setup();
  const router = createMemoryRouter(
    [
      { path: '/', element: <WelcomePanel /> },
      { path: '/users', element: <p>User Management</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  expect(screen.getByRole('heading', { name: 'Welcome to Steward' })).toBeInTheDocument();
  expect(screen.getByRole('heading', { name: 'Set up your organization' })).toBeInTheDocument();
  await user.click(screen.getByRole('link', { name: 'Set Up Organization' }));
  expect(router.state.location.pathname).toBe('/users');
});
