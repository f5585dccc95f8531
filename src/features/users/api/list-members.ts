import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';

export type Member = Pick<
  Tables<'user_profiles'>,
  'id' | 'email' | 'full_name' | 'role' | 'is_active' | 'last_login' | 'created_at'
>;

/** The organisation's members, newest first. */
export async function listMembers(organizationId: string): Promise<Member[]> {
  const { data, error } = await supabase()
    .from('user_profiles')
    .select('id, email, full_name, role, is_active, last_login, created_at')
    .eq('organization_id', organizationId)
    .order('created_at', { ascending: false });
  if (error) {
    console.error('Failed to fetch users', error);
    throw new Error('Failed to fetch users');
  }
  return data;
}

export const membersQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: userKeys.members(organizationId),
    queryFn: () => listMembers(organizationId),
  });

export const useMembers = (organizationId: string) => useQuery(membersQueryOptions(organizationId));
