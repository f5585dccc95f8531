import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorPanel } from '../../../components/ui/form-error.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { isMasterAdminRole, type Role } from '../../../lib/roles.ts';
import { useMembers } from '../api/list-members.ts';
import { usePendingInvitations } from '../api/list-pending-invitations.ts';
import { useTeamActions } from '../hooks/use-team-actions.ts';
import { ResetLinkDialog } from './reset-link-dialog.tsx';
import { InvitationsTable } from './invitations-table.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { MembersTable } from './members-table.tsx';
import { StorageUsagePanel } from './storage-usage-panel.tsx';
import { TeamStats } from './team-stats.tsx';
import { TwoFactorRequirement } from './two-factor-requirement.tsx';
import { useMembersWithTwoFactor } from '../api/two-factor-admin.ts';
import { UsersSkeleton } from './users-skeleton.tsx';

export interface UserManagementProps {
  /** The signed-in admin. */
  currentUser: { id: string; role: Role };
  organizationId: string;
  organizationName: string;
}

/**
 * What an admin sees on /users (spec §2): the counts, the storage, the members, the pending
 * invitations and the invite dialog, after a skeleton; Error: {message} when the team cannot
 * be loaded. The lists stay on screen while a change reloads them.
 */
export function UserManagement({
  currentUser,
  organizationId,
  organizationName,
}: UserManagementProps) {
  const members = useMembers(organizationId);
  const invitations = usePendingInvitations(organizationId);
  const actions = useTeamActions();
  const isMaster = isMasterAdminRole(currentUser.role);
  const twoFactor = useMembersWithTwoFactor(isMaster);
  const [inviting, setInviting] = useState(false);

  // A list that could not be loaded at all; a failed reload keeps what was shown.
  const failed =
    (!members.data && members.error) || (!invitations.data && invitations.error) || null;
  if (failed) return <ErrorPanel title={`Error: ${errorMessage(failed)}`} />;
  if (!members.data || !invitations.data) return <UsersSkeleton />;

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-gray-900">User Management</h1>
          <p className="mt-1 text-sm text-gray-600">
            Manage the members and invitations of {organizationName}.
          </p>
        </div>
        <Button icon={UserPlus} onClick={() => setInviting(true)}>
          Invite User
        </Button>
      </div>

      <TeamStats members={members.data} invitations={invitations.data} />
      <StorageUsagePanel organizationId={organizationId} />
      {isMaster && <TwoFactorRequirement />}

      <section aria-labelledby="team-members-heading">
        <h2 id="team-members-heading" className="mb-3 text-lg font-semibold text-gray-900">
          Team Members
        </h2>
        <MembersTable
          members={members.data}
          currentUserId={currentUser.id}
          canChangeRoles={isMasterAdminRole(currentUser.role)}
          busyIds={actions.busyIds}
          onChangeRole={actions.changeRole}
          onDeactivate={actions.deactivate}
          onReactivate={actions.reactivate}
          onSendPasswordReset={actions.sendPasswordReset}
          {...(isMaster && twoFactor.data
            ? { twoFactorIds: twoFactor.data, onRemoveTwoFactor: actions.removeTwoFactor }
            : {})}
          {...(isMaster ? { onMakeMasterAdmin: actions.makeMasterAdmin } : {})}
        />
      </section>

      {invitations.data.length > 0 && (
        <InvitationsTable
          invitations={invitations.data}
          busyIds={actions.busyIds}
          onCancel={actions.cancelInvitation}
        />
      )}

      {actions.resetLink && (
        <ResetLinkDialog reset={actions.resetLink} onClose={actions.closeResetLink} />
      )}

      {inviting && (
        <InviteDialog
          organizationName={organizationName}
          pendingInvitations={invitations.data}
          onClose={() => setInviting(false)}
        />
      )}
    </div>
  );
}
