import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Deactivates a member: they keep their account but see nothing of the organisation. */
export async function deactivateUser(userId: string): Promise<void> {
  await succeeded(supabase().rpc('deactivate_user', { user_id: userId }));
}

/** Deactivating a member (their id is the variable); the members are read again. */
export function useDeactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userKeys.teamChange('deactivate'),
    mutationFn: deactivateUser,
    meta: { errorMessage: 'Failed to deactivate user' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.profiles }),
  });
}
