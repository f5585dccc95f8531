import { useMutation } from '@tanstack/react-query';
import { useRef } from 'react';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/**
 * Asks the server to e-mail a link to set a new password. The server answers alike whether or
 * not the address has an account, so success says only that the request was taken.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  await succeeded(supabase().auth.resetPasswordForEmail(email.trim()));
}

/** The form shows a refusal above it, as the sign-in form does. */
export const useRequestPasswordReset = () =>
  useMutation({ mutationFn: requestPasswordReset, meta: { errorShownInPlace: true } });

/** Raised when the e-mailed link is used up, expired or not one at all. */
export class ResetLinkInvalidError extends Error {}

export interface NewPassword {
  tokenHash: string;
  password: string;
}

/**
 * Setting a new password from an e-mailed link: the link's token is exchanged for a recovery
 * session (once: a link works a single time), then the password is changed in that session.
 * When the change is refused (say, the same password as before) the session is kept, so that
 * the next attempt does not need the link again.
 */
export function useResetPassword() {
  const verified = useRef<string | null>(null);
  return useMutation({
    meta: { errorShownInPlace: true },
    mutationFn: async ({ tokenHash, password }: NewPassword) => {
      const auth = supabase().auth;
      if (verified.current !== tokenHash) {
        const { error } = await auth.verifyOtp({ token_hash: tokenHash, type: 'recovery' });
        if (error) {
          if (error.code === 'otp_expired' || error.status === 403) {
            throw new ResetLinkInvalidError(error.message);
          }
          throw error;
        }
        verified.current = tokenHash;
      }
      await succeeded(auth.updateUser({ password }));
    },
  });
}
