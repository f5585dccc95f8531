import { useMutation, useQueryClient } from '@tanstack/react-query';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { factorKeys } from './two-factor.ts';

export const INVALID_RECOVERY_CODE = 'This recovery code is not valid.';

/**
 * Ten new one-time recovery codes, shown once (a session that proved the second factor); the
 * earlier ones stop working. GoTrue has none: they are Steward's, in the database.
 */
export async function generateRecoveryCodes(): Promise<string[]> {
  const { data } = await succeeded(supabase().rpc('generate_recovery_codes'));
  return data;
}

export const useGenerateRecoveryCodes = () =>
  useMutation({
    mutationFn: generateRecoveryCodes,
    meta: { errorMessage: 'Failed to make recovery codes' },
  });

/**
 * A recovery code in place of the authenticator's: the server spends it and removes the
 * member's factors, and the session is refreshed so that it no longer waits for a code. The
 * member is asked to set two-factor sign-in up again.
 */
export async function redeemRecoveryCode(code: string): Promise<void> {
  const { data } = await succeeded(supabase().rpc('redeem_recovery_code', { code: code.trim() }));
  if (data < 0) throw new Error(INVALID_RECOVERY_CODE);
  await succeeded(supabase().auth.refreshSession());
}

/** The sign-in screen shows a refusal above its form. */
export function useRedeemRecoveryCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeemRecoveryCode,
    meta: { errorShownInPlace: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factorKeys.verified }),
  });
}
