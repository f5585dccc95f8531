import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';

/** The confirmations an e-mailed link asks for: a new address, or a new account's address. */
export type EmailConfirmation = 'email_change' | 'signup';

/** Raised when the link is used up, expired or not one at all. */
export class ConfirmationLinkInvalidError extends Error {}

/**
 * What a used link did: the person is signed in with their (new) address, or, for the first of
 * the two links of an e-mail change (one to each address), the change waits for the other.
 */
export type ConfirmationOutcome = { email: string } | { otherLinkNeeded: true };

/** Uses the link's token. */
export async function confirmEmail({
  tokenHash,
  type,
}: {
  tokenHash: string;
  type: EmailConfirmation;
}): Promise<ConfirmationOutcome> {
  const { data, error } = await supabase().auth.verifyOtp({ token_hash: tokenHash, type });
  if (error) {
    if (error.code === 'otp_expired' || error.status === 403) {
      throw new ConfirmationLinkInvalidError(error.message);
    }
    throw error;
  }
  // GoTrue answers the first link of a secure e-mail change with a message alone.
  if (!data.session && type === 'email_change') return { otherLinkNeeded: true };
  return { email: data.user?.email ?? '' };
}

/** The confirmation page shows a refusal above its button. */
export const useConfirmEmail = () =>
  useMutation({ mutationFn: confirmEmail, meta: { errorShownInPlace: true } });
