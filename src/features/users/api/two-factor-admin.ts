import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** The master admin requires (or no longer requires) a second factor of admins. */
export async function setTwoFactorRequirement(required: boolean): Promise<void> {
  await succeeded(supabase().rpc('set_two_factor_requirement', { required }));
}

export const useSetTwoFactorRequirement = () =>
  useMutation({
    mutationFn: setTwoFactorRequirement,
    meta: { errorMessage: 'Failed to change the setting' },
  });

const twoFactorMembersKey = [...userKeys.profiles, 'two-factor'] as const;

/** The members who have a second factor (admins see it in the members table). */
export const useMembersWithTwoFactor = (enabled: boolean) =>
  useQuery({
    queryKey: twoFactorMembersKey,
    queryFn: async (): Promise<ReadonlySet<string>> => {
      const { data } = await succeeded(supabase().rpc('members_with_two_factor'));
      return new Set(data ?? []);
    },
    enabled,
  });

/** A member lost their phone: the master admin removes their second factor. */
export function useRemoveMemberTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: userKeys.teamChange('remove-two-factor'),
    meta: { errorMessage: 'Failed to remove two-factor sign-in' },
    mutationFn: async (userId: string) => {
      await succeeded(supabase().rpc('remove_member_two_factor', { user_id: userId }));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorMembersKey }),
  });
}
