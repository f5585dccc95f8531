import { supabase } from '../../../lib/supabase.ts';

/**
 * Creates an account. Returns whether the backend signed the new user in at once (e-mail
 * confirmation off, as in the embedded backend) or expects them to confirm first.
 */
export async function signUpWithPassword(
  email: string,
  password: string,
): Promise<{ signedIn: boolean }> {
  const { data, error } = await supabase().auth.signUp({ email, password });
  if (error) throw error;
  return { signedIn: data.session !== null };
}
