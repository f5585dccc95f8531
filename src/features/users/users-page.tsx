import { AlertTriangle, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { OrganizationSetup } from '../organization/components/organization-setup.tsx';
import { isAdminRole, isMasterAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { AccessRestricted } from './components/access-restricted.tsx';
import { InvitationsTable } from './components/invitations-table.tsx';
import { InviteDialog } from './components/invite-dialog.tsx';
import { MembersTable } from './components/members-table.tsx';
import { StorageUsagePanel } from './components/storage-usage-panel.tsx';
import { TeamStats } from './components/team-stats.tsx';
import { UsersSkeleton } from './components/users-skeleton.tsx';
import { useTeamActions } from './hooks/use-team-actions.ts';
import { useTeam } from './hooks/use-team.ts';

/**
 * User Management (/users, spec §2): the organisation set-up screen without an organisation,
 * Access Restricted for non-admins, otherwise the counts, members, pending invitations and the
 * invite dialog.
 */
export function UsersPage() {
  const { profile, organization } = useSession();
  const organizationId = profile?.organization_id ?? null;
  const isAdmin = isAdminRole(profile?.role);
  const { state, reload } = useTeam(organizationId, isAdmin);
  const actions = useTeamActions(reload);
  const [inviting, setInviting] = useState(false);

  if (!profile || !organizationId) return <OrganizationSetup />;
  if (!isAdmin) return <AccessRestricted />;
  if (state.status === 'loading') return <UsersSkeleton />;
  if (state.status === 'error') {
    return (
      <div
        role="alert"
        className="flex items-start gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-800"
      >
        <AlertTriangle className="h-5 w-5 shrink-0" aria-hidden="true" />
        <p>Error: {state.message}</p>
      </div>
    );
  }

  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-gray-900">User Management</h1>
          <p className="mt-1 text-sm text-gray-600">
            Manage the members and invitations of {organization?.name ?? 'your organization'}.
          </p>
        </div>
        <button
          type="button"
          onClick={() => setInviting(true)}
          className="inline-flex items-center gap-2 rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
        >
          <UserPlus className="h-4 w-4" aria-hidden="true" />
          Invite User
        </button>
      </div>

      <TeamStats members={state.members} invitations={state.invitations} />
      <StorageUsagePanel />

      <section aria-labelledby="team-members-heading">
        <h2 id="team-members-heading" className="mb-3 text-lg font-semibold text-gray-900">
          Team Members
        </h2>
        <MembersTable
          members={state.members}
          currentUserId={profile.id}
          canChangeRoles={isMasterAdminRole(profile.role)}
          busyId={actions.busyId}
          onChangeRole={(userId, role) => void actions.changeRole(userId, role)}
          onDeactivate={(userId) => void actions.deactivate(userId)}
          onReactivate={(userId) => void actions.reactivate(userId)}
        />
      </section>

      {state.invitations.length > 0 && (
        <InvitationsTable
          invitations={state.invitations}
          busyId={actions.busyId}
          onCancel={(invitationId) => void actions.cancelInvitation(invitationId)}
        />
      )}

      {inviting && (
        <InviteDialog
          organizationName={organization?.name ?? 'your organization'}
          onClose={() => setInviting(false)}
          onInvited={reload}
        />
      )}
    </div>
  );
}
