import { supabase } from '../../../lib/supabase.ts';

/** Signs in with e-mail and password; the session provider picks up the new session. */
export async function signInWithPassword(email: string, password: string): Promise<void> {
  const { error } = await supabase().auth.signInWithPassword({ email, password });
  if (error) throw error;
}
