import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';

/** The confirmations an e-mailed link asks for: a new address, or a new account's address. */
export type EmailConfirmation = 'email_change' | 'signup';

/** Raised when the link is used up, expired or not one at all. */
export class ConfirmationLinkInvalidError extends Error {}

/** Uses the link's token; the person is then signed in, and their (new) address is returned. */
export async function confirmEmail({
  tokenHash,
  type,
}: {
  tokenHash: string;
  type: EmailConfirmation;
}): Promise<string> {
  const { data, error } = await supabase().auth.verifyOtp({ token_hash: tokenHash, type });
  if (error) {
    if (error.code === 'otp_expired' || error.status === 403) {
      throw new ConfirmationLinkInvalidError(error.message);
    }
    throw error;
  }
  return data.user?.email ?? '';
}

/** The confirmation page shows a refusal above its button. */
export const useConfirmEmail = () =>
  useMutation({ mutationFn: confirmEmail, meta: { errorShownInPlace: true } });
