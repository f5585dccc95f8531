import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { documentKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** An active member of the organisation, as the responsible-member choice lists them. */
export interface OrganizationMember {
  id: string;
  full_name: string | null;
  email: string;
}

/** The organisation's active members by name (row-level security: the caller's organisation). */
export async function listOrganizationMembers(): Promise<OrganizationMember[]> {
  const { data } = await succeeded(
    supabase()
      .from('user_profiles')
      .select('id, full_name, email')
      .eq('is_active', true)
      .not('organization_id', 'is', null)
      .order('full_name', { nullsFirst: false })
      .order('email'),
    'Failed to fetch users',
  );
  return data;
}

export const organizationMembersQueryOptions = () =>
  queryOptions({ queryKey: documentKeys.members(), queryFn: listOrganizationMembers });

export const useOrganizationMembers = () => useQuery(organizationMembersQueryOptions());
