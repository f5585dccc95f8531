import { useMutationState } from '@tanstack/react-query';
import { useState } from 'react';
import type { ChangeableRole } from '../../../lib/roles.ts';
import { useFeedback } from '../../../components/feedback.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useCancelInvitation } from '../api/cancel-invitation.ts';
import { useDeactivateUser } from '../api/deactivate-user.ts';
import { useMakeMasterAdmin } from '../api/make-master-admin.ts';
import { useMakeResetLink, type ResetLink } from '../api/make-reset-link.ts';
import { userKeys } from '../api/query-keys.ts';
import { useReactivateUser } from '../api/reactivate-user.ts';
import { useSendPasswordReset } from '../api/send-password-reset.ts';
import { useRemoveMemberTwoFactor } from '../api/two-factor-admin.ts';
import { useUpdateUserRole, type RoleChange } from '../api/update-user-role.ts';
import { useMailDelivery } from '../../../lib/mail-delivery.ts';

/** The member or invitation a team change is about: its variable, or the member of a role change. */
const rowOf = (variables: unknown) =>
  typeof variables === 'string' ? variables : (variables as RoleChange).userId;

/**
 * The row actions of User Management, each with the specification's confirmation (§5); the
 * confirming buttons name the action. A refusal is shown by the one handler of failed writes,
 * with the specification's words (§8, each mutation's `meta`). `busyIds` are the members and
 * invitations being changed, so their controls can wait.
 */
export function useTeamActions() {
  const { confirm } = useFeedback();
  const toast = useToast();
  const updateRole = useUpdateUserRole();
  const deactivate = useDeactivateUser();
  const reactivate = useReactivateUser();
  const cancelInvitation = useCancelInvitation();
  const passwordReset = useSendPasswordReset();
  const removeTwoFactor = useRemoveMemberTwoFactor();
  const makeResetLink = useMakeResetLink();
  const makeMasterAdmin = useMakeMasterAdmin();
  const delivery = useMailDelivery();
  // The reset link made for a member, shown until the admin closes it.
  const [resetLink, setResetLink] = useState<ResetLink | null>(null);
  const busyIds = new Set(
    useMutationState({
      filters: { mutationKey: userKeys.teamChanges, status: 'pending' },
      select: (mutation) => rowOf(mutation.state.variables),
    }),
  );

  return {
    busyIds,
    resetLink,
    closeResetLink: () => setResetLink(null),
    changeRole: (userId: string, role: ChangeableRole) => updateRole.mutate({ userId, role }),
    deactivate: async (userId: string) => {
      const confirmed = await confirm('Are you sure you want to deactivate this user?', {
        confirmLabel: 'Deactivate',
        destructive: true,
      });
      if (confirmed) deactivate.mutate(userId);
    },
    reactivate: (userId: string) => reactivate.mutate(userId),
    makeMasterAdmin: async (userId: string, email: string) => {
      const confirmed = await confirm(
        `Make ${email} a master admin too? Master admins can help each other back in (a lost phone or password). This cannot be undone.`,
        { confirmLabel: 'Make master admin' },
      );
      if (confirmed) makeMasterAdmin.mutate(userId);
    },
    removeTwoFactor: async (userId: string, email: string) => {
      const confirmed = await confirm(
        `Remove the two-factor sign-in of ${email}? They are signed out, and sign in with their password alone until they set it up again.`,
        { confirmLabel: 'Remove', destructive: true },
      );
      if (confirmed) removeTwoFactor.mutate(userId);
    },
    sendPasswordReset: async (userId: string, email: string) => {
      // Without SMTP nothing can be e-mailed: the admin passes a one-time link on instead.
      if (delivery.data !== 'smtp') {
        const make = await confirm(
          `Make a link for ${email} to set a new password? E-mail is not set up on this installation, so you give them the link yourself. It works once, for one hour.`,
          { confirmLabel: 'Make link' },
        );
        if (make) makeResetLink.mutate(userId, { onSuccess: setResetLink });
        return;
      }
      const confirmed = await confirm(
        `Send ${email} a link to set a new password? The link goes to their own address and works once, for one hour.`,
        { confirmLabel: 'Send link' },
      );
      if (!confirmed) return;
      passwordReset.mutate(userId, {
        onSuccess: (status) =>
          status === 'queued'
            ? toast(`A password reset link has been sent to ${email}.`)
            : toast(
                'E-mail is not set up on this installation, so no reset link could be sent.',
                'info',
              ),
      });
    },
    cancelInvitation: async (invitationId: string) => {
      const confirmed = await confirm('Are you sure you want to cancel this invitation?', {
        confirmLabel: 'Cancel invitation',
        cancelLabel: 'Keep invitation',
        destructive: true,
      });
      if (confirmed) cancelInvitation.mutate(invitationId);
    },
  };
}
