import { AuthApiError } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { authErrorMessage } from './auth-error-message.ts';

describe('authErrorMessage', () => {
  it.each([
    ['Invalid login credentials', 'Invalid email or password'],
    ['Email not confirmed', 'Please check your email and confirm your account'],
    ['User already registered', 'An account with this email already exists'],
    ['Password should be at least 6 characters.', 'Password should be at least 6 characters.'],
  ])('maps "%s" to "%s"', (backend, shown) => {
    expect(authErrorMessage(new AuthApiError(backend, 400, undefined))).toBe(shown);
  });

  it('falls back to "An error occurred" when there is no message', () => {
    expect(authErrorMessage(new Error(''))).toBe('An error occurred');
    expect(authErrorMessage(null)).toBe('An error occurred');
  });
});
