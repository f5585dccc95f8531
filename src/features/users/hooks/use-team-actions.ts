import { useState } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { cancelInvitation } from '../api/invitations.ts';
import { deactivateUser, reactivateUser, updateUserRole } from '../api/members.ts';
import { errorText } from '../lib/format.ts';

/**
 * The row actions of User Management, each with the specification's confirmation and alert
 * texts (§5, §8). `busyId` is the member or invitation being changed, so its controls can wait.
 */
export function useTeamActions(reload: () => void) {
  const { alert, confirm } = useFeedback();
  const [busyId, setBusyId] = useState<string | null>(null);

  const run = async (id: string, action: () => Promise<void>, failure: string) => {
    setBusyId(id);
    try {
      await action();
      reload();
    } catch (error) {
      await alert(`${failure}: ${errorText(error)}`);
    } finally {
      setBusyId(null);
    }
  };

  return {
    busyId,
    changeRole: (userId: string, role: 'user' | 'admin') =>
      run(userId, () => updateUserRole(userId, role), 'Failed to update user role'),
    deactivate: async (userId: string) => {
      if (!(await confirm('Are you sure you want to deactivate this user?'))) return;
      await run(userId, () => deactivateUser(userId), 'Failed to deactivate user');
    },
    reactivate: (userId: string) =>
      run(userId, () => reactivateUser(userId), 'Failed to reactivate user'),
    cancelInvitation: async (invitationId: string) => {
      if (!(await confirm('Are you sure you want to cancel this invitation?'))) return;
      await run(invitationId, () => cancelInvitation(invitationId), 'Failed to cancel invitation');
    },
  };
}
