/** Section 5's minimum for a password chosen on the invitation page (and every new password). */
export const MIN_PASSWORD_LENGTH = 6;

/** The two fields of a new password. */
export type NewPasswordField = 'password' | 'confirmation';

/**
 * The first rule of spec §5 that the two passwords break, in its words, under the field it is
 * about; or null.
 */
export function passwordProblem(
  password: string,
  confirmation: string,
): Partial<Record<NewPasswordField, string>> | null {
  if (password !== confirmation) return { confirmation: 'Passwords do not match' };
  if (password.length < MIN_PASSWORD_LENGTH) {
    return { password: 'Password must be at least 6 characters long' };
  }
  return null;
}
