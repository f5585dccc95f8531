import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Gives a deactivated member their access back. */
export async function reactivateUser(userId: string): Promise<void> {
  await succeeded(supabase().rpc('reactivate_user', { user_id: userId }));
}

/** Reactivating a member (their id is the variable); the members are read again. */
export function useReactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userKeys.teamChange('reactivate'),
    mutationFn: reactivateUser,
    meta: { errorMessage: 'Failed to reactivate user' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.profiles }),
  });
}
