import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Joins the invitation's organisation as the signed-in user (rpc `accept_invitation`). */
export async function acceptInvitation(token: string): Promise<void> {
  await succeeded(supabase().rpc('accept_invitation', { token }), 'Failed to accept invitation');
}
