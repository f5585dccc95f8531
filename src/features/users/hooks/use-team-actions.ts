import { useMutationState } from '@tanstack/react-query';
import { useFeedback } from '../../../components/feedback.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useCancelInvitation } from '../api/cancel-invitation.ts';
import { useDeactivateUser } from '../api/deactivate-user.ts';
import { userKeys } from '../api/query-keys.ts';
import { useReactivateUser } from '../api/reactivate-user.ts';
import { useSendPasswordReset } from '../api/send-password-reset.ts';
import { useRemoveMemberTwoFactor } from '../api/two-factor-admin.ts';
import { useUpdateUserRole, type RoleChange } from '../api/update-user-role.ts';

/** The member or invitation a team change is about: its variable, or the member of a role change. */
const rowOf = (variables: unknown) =>
  typeof variables === 'string' ? variables : (variables as RoleChange).userId;

/**
 * The row actions of User Management, each with the specification's confirmation and alert
 * texts (§5, §8); the confirming buttons name the action. `busyIds` are the members and
 * invitations being changed, so their controls can wait.
 */
export function useTeamActions() {
  const { alert, confirm } = useFeedback();
  const updateRole = useUpdateUserRole();
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const cancelInvitation = useCancelInvitation();
  const passwordReset = useSendPasswordReset();
  const removeTwoFactor = useRemoveMemberTwoFactor();
  const busyIds = new Set(
    useMutationState({
      filters: { mutationKey: userKeys.teamChanges, status: 'pending' },
      select: (mutation) => rowOf(mutation.state.variables),
    }),
  );

  /** Runs a change; a refusal is alerted as "{failure}: {reason}". */
  const run = async (change: Promise<unknown>, failure: string) => {
    try {
      await change;
    } catch (error) {
      await alert(`${failure}: ${errorMessage(error)}`);
    }
  };

  return {
    busyIds,
    changeRole: (userId: string, role: 'user' | 'admin') =>
      run(updateRole.mutateAsync({ userId, role }), 'Failed to update user role'),
    deactivate: async (userId: string) => {
      const confirmed = await confirm('Are you sure you want to deactivate this user?', {
        confirmLabel: 'Deactivate',
        destructive: true,
      });
      if (confirmed) await run(deactivate.mutateAsync(userId), 'Failed to deactivate user');
    },
    reactivate: (userId: string) =>
      run(reactivate.mutateAsync(userId), 'Failed to reactivate user'),
    removeTwoFactor: async (userId: string, email: string) => {
      const confirmed = await confirm(
        `Remove the two-factor sign-in of ${email}? They are signed out, and sign in with their password alone until they set it up again.`,
        { confirmLabel: 'Remove', destructive: true },
      );
      if (confirmed) {
        await run(removeTwoFactor.mutateAsync(userId), 'Failed to remove two-factor sign-in');
      }
    },
    sendPasswordReset: async (userId: string, email: string) => {
      const confirmed = await confirm(
        `Send ${email} a link to set a new password? The link goes to their own address and works once, for one hour.`,
        { confirmLabel: 'Send link' },
      );
      if (!confirmed) return;
      await run(
        passwordReset
          .mutateAsync(userId)
          .then((status) =>
            alert(
              status === 'queued'
                ? `A password reset link has been sent to ${email}.`
                : 'E-mail is not set up on this installation, so no reset link could be sent.',
            ),
          ),
        'Failed to send reset link',
      );
    },
    cancelInvitation: async (invitationId: string) => {
      const confirmed = await confirm('Are you sure you want to cancel this invitation?', {
        confirmLabel: 'Cancel invitation',
        cancelLabel: 'Keep invitation',
        destructive: true,
      });
      if (confirmed) {
        await run(cancelInvitation.mutateAsync(invitationId), 'Failed to cancel invitation');
      }
    },
  };
}
