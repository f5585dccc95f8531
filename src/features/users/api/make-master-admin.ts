import { useMutation, useQueryClient } from '@tanstack/react-query';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';

/**
 * Makes an active admin a master admin too (master admins), so that a master admin who loses
 * her phone or password can be helped by another. The role cannot be taken back afterwards.
 */
export async function makeMasterAdmin(userId: string): Promise<void> {
  await succeeded(supabase().rpc('make_master_admin', { user_id: userId }));
}

export function useMakeMasterAdmin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userKeys.teamChange('make-master-admin'),
    mutationFn: makeMasterAdmin,
    meta: { errorMessage: 'Failed to make a master admin' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.profiles }),
  });
}
