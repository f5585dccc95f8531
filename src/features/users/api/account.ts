import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

/** GoTrue's code for a wrong current password, in words a member understands. */
export const WRONG_CURRENT_PASSWORD = 'Your current password is incorrect';

/**
 * Changes one's password; the server asks for the current one and signs out every other
 * session of the account.
 */
export async function changePassword({
  currentPassword,
  newPassword,
}: PasswordChange): Promise<void> {
  const { error } = await supabase().auth.updateUser({
    password: newPassword,
    current_password: currentPassword,
  });
  if (error) {
    if (error.code === 'current_password_mismatch') throw new Error(WRONG_CURRENT_PASSWORD);
    throw error;
  }
}

/** The form shows a refusal: at the current password when that is wrong, else above it. */
export const useChangePassword = () =>
  useMutation({ mutationFn: changePassword, meta: { errorShownInPlace: true } });

/**
 * Asks to change one's e-mail address to `email`: the server sends a link to the new address
 * and one to the current address, and the address changes only when they are used.
 */
export async function changeEmail(email: string): Promise<void> {
  await succeeded(supabase().auth.updateUser({ email: email.trim() }));
}

/** The form shows a refusal of the address above it. */
export const useChangeEmail = () =>
  useMutation({ mutationFn: changeEmail, meta: { errorShownInPlace: true } });

/** Ends every session of the account but this one (other browsers, a lost phone). */
export async function signOutOtherSessions(): Promise<void> {
  await succeeded(supabase().auth.signOut({ scope: 'others' }));
}

export const useSignOutOtherSessions = () =>
  useMutation({
    mutationFn: signOutOtherSessions,
    meta: { errorMessage: 'Failed to sign out other sessions' },
  });
