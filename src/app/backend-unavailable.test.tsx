import { render, screen } from '@testing-library/react';
import { expect, it } from 'vitest';
import { BackendUnavailable } from './backend-unavailable.tsx';

it('explains that the server cannot be reached instead of showing a blank page', () => {
  render(<BackendUnavailable message="The server answered 502 for /config.json." />);
  expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the server');
  expect(screen.getByText('The server answered 502 for /config.json.')).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
});
