import type { InvitableRole, Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';

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

export interface InviteRequest {
  email: string;
  role: InvitableRole;
  fullName: string | null;
}

/** Invites a person; the token comes back only here, once (rpc `invite_user`). */
export async function inviteUser({
  email,
  role,
  fullName,
}: InviteRequest): Promise<{ email: string; token: string }> {
  const { data, error } = await supabase().rpc('invite_user', {
    email,
    role,
    full_name: fullName,
  });
  if (error) throw new Error(error.message);
  if (!data?.token || !data.email) throw new Error('Failed to invite user');
  return { email: data.email, token: data.token };
}

/** Withdraws a pending invitation (rpc `cancel_invitation`). */
export async function cancelInvitation(invitationId: string): Promise<void> {
  const { error } = await supabase().rpc('cancel_invitation', { invitation_id: invitationId });
  if (error) throw new Error(error.message);
}
