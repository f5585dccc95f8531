import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Enums } from '../../../lib/database.types.ts';

/** The roles an invitation gives (the check constraint of `user_invitations.role`). */
export type InvitableRole = Enums<'user_invitations_role'>;
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

/**
 * What became of the e-mail of an invitation: `queued` (being sent), `outbox` (kept: e-mail
 * delivery is not set up), `recently_sent` (not sent: one went to the address a short while
 * ago), or null when it was not to be e-mailed.
 */
export type InvitationMailStatus = 'queued' | 'outbox' | 'recently_sent' | null;

export interface InviteResult {
  email: string;
  token: string;
  mailStatus: InvitationMailStatus;
}

/** SQLSTATE of the database's refusal past an e-mail allowance (HTTP 429). */
const MAIL_LIMIT_CODE = 'PT429';

/** What to add to that refusal: the invitation itself is still possible. */
export const INVITE_WITHOUT_EMAIL_HINT =
  'You can still invite without e-mail and share the link yourself.';

const MAIL_STATUSES: readonly string[] = ['queued', 'outbox', 'recently_sent'];

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
  // The function trims the name and keeps none when it is empty.
  const args = { email, role, full_name: fullName ?? '' };
  if (byEmail) {
    const { data, error } = await supabase().rpc('invite_user_by_email', args);
    if (error) {
      throw new Error(
        error.code === MAIL_LIMIT_CODE
          ? `${error.message} ${INVITE_WITHOUT_EMAIL_HINT}`
          : error.message,
      );
    }
    if (!data?.token || !data.email) throw new Error('Failed to invite user');
    const status = data.mail_status ?? 'queued';
    return {
      email: data.email,
      token: data.token,
      mailStatus: (MAIL_STATUSES.includes(status) ? status : 'queued') as InvitationMailStatus,
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
