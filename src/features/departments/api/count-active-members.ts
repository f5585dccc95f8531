import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** How many active members the organisation has (the department page's Team Members card). */
export async function countActiveMembers(organizationId: string): Promise<number> {
  const { count } = await succeeded(
    supabase()
      .from('user_profiles')
      .select('id', { count: 'exact', head: true })
      .eq('organization_id', organizationId)
      .eq('is_active', true),
  );
  return count ?? 0;
}

export const activeMemberCountQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: ['user_profiles', 'active-count', organizationId] as const,
    queryFn: () => countActiveMembers(organizationId),
  });

/** The organisation's real active member count (architecture.md: instead of the fixed 8). */
export function useActiveMemberCount(organizationId: string | null) {
  return useQuery({
    ...activeMemberCountQueryOptions(organizationId ?? ''),
    enabled: organizationId !== null,
  });
}
