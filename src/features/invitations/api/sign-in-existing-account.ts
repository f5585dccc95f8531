import { supabase } from '../../../lib/supabase.ts';

/** Signs an existing account in, for a person invited with an e-mail that already has one. */
export async function signInExistingAccount(email: string, password: string): Promise<boolean> {
  const { error } = await supabase().auth.signInWithPassword({ email, password });
  return !error;
}
