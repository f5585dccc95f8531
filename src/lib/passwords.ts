/** Section 5's minimum for a password chosen on the invitation page (and every new password). */
export const MIN_PASSWORD_LENGTH = 6;

/** The first rule of spec §5 that the two passwords break, in its words, or null. */
export function passwordProblem(password: string, confirmation: string): string | null {
  if (password !== confirmation) return 'Passwords do not match';
  if (password.length < MIN_PASSWORD_LENGTH) {
    return 'Password must be at least 6 characters long';
  }
  return null;
}
