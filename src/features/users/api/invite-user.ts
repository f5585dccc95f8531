import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvitableRole } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

export interface InviteRequest {
  email: string;
  role: InvitableRole;
  fullName: string | null;
  /** Also e-mail the invitation to the address (in the same call, the only one that knows the token). */
  byEmail?: boolean;
}

export interface InviteResult {
  email: string;
  token: string;
  /** When e-mailed: `queued` (being sent) or `outbox` (kept: e-mail delivery is not set up). */
  mailStatus: 'queued' | 'outbox' | null;
}

/**
 * Invites a person; the token comes back only here, once (rpc `invite_user`, or
 * `invite_user_by_email`, which also records the e-mail carrying the link).
 */
export async function inviteUser({
  email,
  role,
  fullName,
  byEmail = false,
}: InviteRequest): Promise<InviteResult> {
  const args = { email, role, full_name: fullName };
  if (byEmail) {
    const { data } = await succeeded(supabase().rpc('invite_user_by_email', args));
    if (!data?.token || !data.email) throw new Error('Failed to invite user');
    return {
      email: data.email,
      token: data.token,
      mailStatus: data.mail_status === 'outbox' ? 'outbox' : 'queued',
    };
  }
  const { data } = await succeeded(supabase().rpc('invite_user', args));
  if (!data?.token || !data.email) throw new Error('Failed to invite user');
  return { email: data.email, token: data.token, mailStatus: null };
}

/** Inviting; the pending invitations are read again behind the dialog. */
export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    meta: { errorMessage: 'Failed to send invitation' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.invitations }),
  });
}
