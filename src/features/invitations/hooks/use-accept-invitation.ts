import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { acceptInvitation } from '../api/accept-invitation.ts';
import { createInvitedAccount } from '../api/create-invited-account.ts';
import type { InvitationDetails } from '../api/get-invitation.ts';
import { signInExistingAccount } from '../api/sign-in-existing-account.ts';

export const EXISTING_ACCOUNT_WRONG_PASSWORD =
  'An account with this email already exists. Enter the password of that account to accept the invitation.';
export const CONFIRM_EMAIL_FIRST =
  'Please check your email and confirm your account, then open this invitation link again.';

export interface AcceptRequest {
  /** What the page showed: its e-mail is the account's. */
  invitation: InvitationDetails;
  password: string;
}

/**
 * Accepting an invitation (spec §7): create the account with the invitation's e-mail, then
 * `accept_invitation`, then on to the dashboard. Someone who already has an account with that
 * e-mail (sign-up answers "User already registered") joins by entering its password instead.
 */
export function useAcceptInvitation(token: string) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { refreshProfile } = useSession();

  return useMutation({
    // The invitation page shows a refusal above the password fields.
    meta: { errorShownInPlace: true },
    mutationFn: async ({ invitation, password }: AcceptRequest) => {
      const outcome = await createInvitedAccount(invitation.email, password, token);
      if (outcome === 'needs-confirmation') throw new Error(CONFIRM_EMAIL_FIRST);
      if (
        outcome === 'already-registered' &&
        !(await signInExistingAccount(invitation.email, password))
      ) {
        throw new Error(EXISTING_ACCOUNT_WRONG_PASSWORD);
      }
      await acceptInvitation(token);
      // The profile loaded at sign-in predates joining: load it again before showing the app.
      await refreshProfile();
    },
    onSuccess: async () => {
      // Marked stale only: nothing on this page shows them, and the lookup of the token, now
      // used up, must not be asked again while the page is left.
      for (const table of ['user_profiles', 'user_invitations']) {
        void queryClient.invalidateQueries({ queryKey: [table], refetchType: 'none' });
      }
      await navigate(paths.dashboard, { replace: true });
    },
  });
}
