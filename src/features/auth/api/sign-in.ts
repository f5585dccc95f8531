import { useMutation } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

export interface Credentials {
  email: string;
  password: string;
}

/** Signs in with e-mail and password; the session provider picks up the new session. */
export async function signInWithPassword({ email, password }: Credentials): Promise<void> {
  await succeeded(supabase().auth.signInWithPassword({ email, password }));
}

/**
 * Signing in. Nothing to invalidate: the session provider empties the cache when the user
 * changes.
 */
/** The form shows a refusal in its red box (spec §8). */
export const useSignIn = () =>
  useMutation({ mutationFn: signInWithPassword, meta: { errorShownInPlace: true } });
