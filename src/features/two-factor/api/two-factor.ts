import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** A TOTP factor being set up: its QR code (an SVG data URI) and the key typed by hand. */
export interface PendingFactor {
  id: string;
  qrCode: string;
  secret: string;
}

/** The server's refusal of a wrong code, in words a member understands. */
export const INVALID_CODE = 'Invalid code. Please try again.';

/** Starts a new TOTP factor (replacing one still pending); the QR code is shown to scan. */
export async function enrolFactor(): Promise<PendingFactor> {
  const { data } = await succeeded(
    supabase().auth.mfa.enroll({
      factorType: 'totp',
      friendlyName: 'Authenticator app',
    }),
  );
  return { id: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret };
}

/**
 * A new factor for this screen: made once per screen (`key`), not again on every render or
 * when the window regains focus.
 */
export const usePendingFactor = (key: string) =>
  useQuery({
    queryKey: ['two-factor', 'enrolment', key],
    queryFn: enrolFactor,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });

/** Proves a code of `factorId`: the session becomes `aal2` (supabase-js keeps the new one). */
export async function verifyCode({ factorId, code }: { factorId: string; code: string }) {
  const { error } = await supabase().auth.mfa.challengeAndVerify({
    factorId,
    code: code.replace(/\s+/g, ''),
  });
  if (error) {
    if (error.code === 'mfa_verification_failed') throw new Error(INVALID_CODE);
    throw error;
  }
}

/** The code form shows a refusal above the code. */
export const useVerifyCode = () =>
  useMutation({ mutationFn: verifyCode, meta: { errorShownInPlace: true } });

/** The verified TOTP factor of the signed-in user, if any. */
export async function verifiedFactor(): Promise<{ id: string } | null> {
  const { data } = await succeeded(supabase().auth.mfa.listFactors());
  return data.totp[0] ? { id: data.totp[0].id } : null;
}

export const factorKeys = { verified: ['two-factor', 'verified'] as const };

export const useVerifiedFactor = () =>
  useQuery({ queryKey: factorKeys.verified, queryFn: verifiedFactor });

/** Removes one's own factor (the server asks for an `aal2` session and may refuse the last). */
export function useRemoveFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'Failed to turn off two-factor sign-in' },
    mutationFn: async (factorId: string) => {
      await succeeded(supabase().auth.mfa.unenroll({ factorId }));
      // The user object (and so the session's list of factors) changes with it.
      await supabase().auth.refreshSession();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: factorKeys.verified }),
  });
}
