import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/session.tsx';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { errorMessage, succeeded } from '../../../lib/errors.ts';

export const PROFILE_NOT_SAVED = 'Failed to update profile';

/**
 * Sets the signed-in member's full name; a blank name clears it. The database lets a member
 * change this one column of their own profile, and nothing while deactivated (which changes
 * no row, and is said so).
 */
export async function updateOwnName(userId: string, fullName: string): Promise<void> {
  const { data } = await succeeded(
    supabase()
      .from('user_profiles')
      .update({ full_name: fullName.trim() || null })
      .eq('id', userId)
      .select('id'),
    PROFILE_NOT_SAVED,
  );
  if (data.length === 0) throw new Error(PROFILE_NOT_SAVED);
}

/**
 * Changing one's own name; what shows it is read again: the session's profile (the navigation
 * bar) and the member lists.
 */
export function useUpdateOwnName() {
  const queryClient = useQueryClient();
  const { user, refreshProfile } = useSession();
  return useMutation({
    meta: { errorMessage: (error) => errorMessage(error, PROFILE_NOT_SAVED) },
    mutationFn: (fullName: string) => {
      if (!user) throw new Error('User not authenticated');
      return updateOwnName(user.id, fullName);
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: userKeys.profiles }),
        refreshProfile(),
      ]),
  });
}
