import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_NEW_PASSWORD,
  NewPasswordFields,
  type NewPasswordValue,
  type NewPasswordFieldsProps,
} from './new-password-fields.tsx';

function Harness(props: Omit<NewPasswordFieldsProps, 'value' | 'onChange'>) {
  const [value, setValue] = useState<NewPasswordValue>(EMPTY_NEW_PASSWORD);
  return (
    <>
      <NewPasswordFields {...props} value={value} onChange={setValue} />
      <output>{JSON.stringify(value)}</output>
    </>
  );
}

describe('NewPasswordFields', () => {
  it('keeps the password and its repetition apart, masked, required and filled as new passwords', async () => {
    render(<Harness />);
    const password = screen.getByLabelText('New Password');
    const confirmation = screen.getByLabelText('Confirm Password');
    for (const field of [password, confirmation]) {
      expect(field).toHaveAttribute('type', 'password');
      expect(field).toHaveAttribute('autocomplete', 'new-password');
      expect(field).toBeRequired();
    }
    await userEvent.type(password, 'secret1');
    await userEvent.type(confirmation, 'secret2');
    expect(screen.getByRole('status')).toHaveTextContent(
      JSON.stringify({ password: 'secret1', confirmation: 'secret2' }),
    );
  });

  it('shows each field on its own toggle, under the labels the page gives', async () => {
    render(<Harness passwordLabel="Create Password" confirmationLabel="Confirm New Password" />);
    const [first, second] = screen.getAllByRole('button', { name: 'Show password' });
    await userEvent.click(first!);
    expect(screen.getByLabelText('Create Password')).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText('Confirm New Password')).toHaveAttribute('type', 'password');
    expect(second).toHaveAccessibleName('Show password');
  });
});
