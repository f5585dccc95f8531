import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { createInvitedAccount, signInExistingAccount } from '../api/account.ts';
import { acceptInvitation } from '../api/invitation.ts';
import { passwordProblem } from '../lib/validate-passwords.ts';

export const EXISTING_ACCOUNT_WRONG_PASSWORD =
  'An account with this email already exists. Enter the password of that account to accept the invitation.';
export const CONFIRM_EMAIL_FIRST =
  'Please check your email and confirm your account, then open this invitation link again.';

/**
 * Accepting an invitation (spec §7): create the account with the invitation's e-mail, then
 * `accept_invitation`, then on to the dashboard. Someone who already has an account with that
 * e-mail (sign-up answers "User already registered") joins by entering its password instead.
 */
export function useAcceptInvitation(token: string, email: string) {
  const navigate = useNavigate();
  const { refreshProfile } = useSession();
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (password: string, confirmation: string) => {
    const problem = passwordProblem(password, confirmation);
    if (problem) {
      setError(problem);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const outcome = await createInvitedAccount(email, password, token);
      if (outcome === 'needs-confirmation') throw new Error(CONFIRM_EMAIL_FIRST);
      if (outcome === 'already-registered' && !(await signInExistingAccount(email, password))) {
        throw new Error(EXISTING_ACCOUNT_WRONG_PASSWORD);
      }
      await acceptInvitation(token);
      // The profile loaded at sign-in predates joining: load it again before showing the app.
      await refreshProfile();
      await navigate(paths.dashboard, { replace: true });
    } catch (caught) {
      setError(
        caught instanceof Error && caught.message ? caught.message : 'Failed to accept invitation',
      );
      setSubmitting(false);
    }
  };

  return { submitting, error, submit };
}
