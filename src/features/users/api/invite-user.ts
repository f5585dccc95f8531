import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvitableRole } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import { userKeys } from './query-keys.ts';

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

/** Inviting; the pending invitations are read again behind the dialog. */
export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.invitations }),
  });
}
