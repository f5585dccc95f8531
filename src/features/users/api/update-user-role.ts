import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeableRole } from '../../../lib/roles.ts';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

export interface RoleChange {
  userId: string;
  role: ChangeableRole;
}

/** Moves a member between user and admin (master admins only; rpc `update_user_role`). */
export async function updateUserRole({ userId, role }: RoleChange): Promise<void> {
  await succeeded(supabase().rpc('update_user_role', { user_id: userId, new_role: role }));
}

/** Changing a role; the members are read again. */
export function useUpdateUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userKeys.teamChange('role'),
    mutationFn: updateUserRole,
    meta: { errorMessage: 'Failed to update user role' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.profiles }),
  });
}
