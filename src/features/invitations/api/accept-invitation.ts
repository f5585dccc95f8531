import { supabase } from '../../../lib/supabase.ts';

/** Joins the invitation's organisation as the signed-in user (rpc `accept_invitation`). */
export async function acceptInvitation(token: string): Promise<void> {
  const { error } = await supabase().rpc('accept_invitation', { token });
  if (error) throw new Error(error.message || 'Failed to accept invitation');
}
