import { errorMessage } from '../../../lib/errors.ts';

/**
 * The sign-in form's error mapping (product-spec §8): the backend's words for the common
 * failures become friendlier ones; anything else is shown as it is.
 */
export function authErrorMessage(error: unknown): string {
  const message = errorMessage(error, 'An error occurred');
  if (message.includes('Invalid login credentials')) return 'Invalid email or password';
  if (message.includes('Email not confirmed')) {
    return 'Please check your email and confirm your account';
  }
  if (message.includes('User already registered')) {
    return 'An account with this email already exists';
  }
  return message;
}
