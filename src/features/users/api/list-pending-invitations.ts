import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';

export type PendingInvitation = Pick<
  Tables<'user_invitations'>,
  'id' | 'email' | 'role' | 'full_name' | 'expires_at' | 'created_at'
> & {
  invited_by_profile: { full_name: string | null; email: string } | null;
};

/** The organisation's invitations that nobody has accepted yet, newest first. */
export async function listPendingInvitations(organizationId: string): Promise<PendingInvitation[]> {
  const { data, error } = await supabase()
    .from('user_invitations')
    .select(
      'id, email, role, full_name, expires_at, created_at, invited_by_profile:user_profiles!invited_by(full_name, email)',
    )
    .eq('organization_id', organizationId)
    .is('accepted_at', null)
    .order('created_at', { ascending: false });
  if (error) {
    console.error('Failed to fetch invitations', error);
    throw new Error('Failed to fetch invitations');
  }
  return data;
}

export const pendingInvitationsQueryOptions = (organizationId: string) =>
  queryOptions({
    queryKey: userKeys.pendingInvitations(organizationId),
    queryFn: () => listPendingInvitations(organizationId),
  });

export const usePendingInvitations = (organizationId: string) =>
  useQuery(pendingInvitationsQueryOptions(organizationId));
