import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';

/** The master admin requires (or no longer requires) a second factor of admins. */
export async function setTwoFactorRequirement(required: boolean): Promise<void> {
  const { error } = await supabase().rpc('set_two_factor_requirement', { required });
  if (error) throw new Error(error.message);
}

export const useSetTwoFactorRequirement = () =>
  useMutation({ mutationFn: setTwoFactorRequirement });

const twoFactorMembersKey = [...userKeys.profiles, 'two-factor'] as const;

/** The members who have a second factor (admins see it in the members table). */
export const useMembersWithTwoFactor = (enabled: boolean) =>
  useQuery({
    queryKey: twoFactorMembersKey,
    queryFn: async (): Promise<ReadonlySet<string>> => {
      const { data, error } = await supabase().rpc('members_with_two_factor');
      if (error) throw new Error(error.message);
      return new Set(data ?? []);
    },
    enabled,
  });

/** A member lost their phone: the master admin removes their second factor. */
export function useRemoveMemberTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userKeys.teamChange('remove-two-factor'),
    mutationFn: async (userId: string) => {
      const { error } = await supabase().rpc('remove_member_two_factor', { user_id: userId });
      if (error) throw new Error(error.message);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorMembersKey }),
  });
}
