import { describe, expect, it } from 'vitest';
import { passwordProblem } from './passwords.ts';

describe('passwordProblem', () => {
  it('accepts two equal passwords of at least 6 characters', () => {
    expect(passwordProblem('secret', 'secret')).toBeNull();
    expect(passwordProblem('a much longer secret', 'a much longer secret')).toBeNull();
  });

  it('refuses passwords that differ', () => {
    expect(passwordProblem('secret1', 'secret2')).toEqual({
      confirmation: 'Passwords do not match',
    });
  });

  it('refuses a password shorter than 6 characters', () => {
    expect(passwordProblem('12345', '12345')).toEqual({
      password: 'Password must be at least 6 characters long',
    });
  });
});
