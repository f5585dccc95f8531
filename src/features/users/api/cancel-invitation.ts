import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';

/** Withdraws a pending invitation (rpc `cancel_invitation`). */
export async function cancelInvitation(invitationId: string): Promise<void> {
  const { error } = await supabase().rpc('cancel_invitation', { invitation_id: invitationId });
  if (error) throw new Error(error.message);
}

/** Cancelling an invitation (its id is the variable); the pending invitations are read again. */
export function useCancelInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userKeys.teamChange('cancel-invitation'),
    mutationFn: cancelInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.invitations }),
  });
}
