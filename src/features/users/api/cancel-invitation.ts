import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Withdraws a pending invitation (rpc `cancel_invitation`). */
export async function cancelInvitation(invitationId: string): Promise<void> {
  await succeeded(supabase().rpc('cancel_invitation', { invitation_id: invitationId }));
}

/** Cancelling an invitation (its id is the variable); the pending invitations are read again. */
export function useCancelInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userKeys.teamChange('cancel-invitation'),
    mutationFn: cancelInvitation,
    meta: { errorMessage: 'Failed to cancel invitation' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.invitations }),
  });
}
