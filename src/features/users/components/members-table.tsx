import { Crown, KeyRound, ShieldOff, UserCheck, UserX } from 'lucide-react';
import { useMemo } from 'react';
import { RoleBadge } from '../../../components/role-badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { Select } from '../../../components/ui/form-field.tsx';
import { formatDate } from '../../../lib/format.ts';
import type { ChangeableRole, Role } from '../../../lib/roles.ts';
import type { Member } from '../api/list-members.ts';

export interface MembersTableProps {
  members: Member[];
  currentUserId: string;
  /** Master admins change roles (spec §6). */
  canChangeRoles: boolean;
  busyIds: ReadonlySet<string>;
  onChangeRole: (userId: string, role: ChangeableRole) => void;
  onDeactivate: (userId: string) => void;
  onReactivate: (userId: string) => void;
  /** Admins send an active member a link to set a new password (as other actions: not to
   * themselves or a master admin). */
  onSendPasswordReset: (userId: string, email: string) => void;
  /** Members with a second factor; master admins may remove it (a lost phone). */
  twoFactorIds?: ReadonlySet<string>;
  onRemoveTwoFactor?: (userId: string, email: string) => void;
  /** Master admins make an active admin a master admin too (issue 24). */
  onMakeMasterAdmin?: (userId: string, email: string) => void;
}

const ROLE_ORDER: Record<Role, number> = { master_admin: 0, admin: 1, user: 2, viewer: 3 };

/**
 * The members of the organisation (spec §2), sortable by each column. Nobody acts on their own
 * row or on a master admin's; only master admins see the role select.
 */
export function MembersTable({
  members,
  currentUserId,
  canChangeRoles,
  busyIds,
  onChangeRole,
  onDeactivate,
  onReactivate,
  onSendPasswordReset,
  twoFactorIds,
  onRemoveTwoFactor,
  onMakeMasterAdmin,
}: MembersTableProps) {
  const actionable = (member: Member) =>
    member.id !== currentUserId && member.role !== 'master_admin';

  const columns = useMemo<DataTableColumn<Member>[]>(
    () => [
      {
        key: 'user',
        header: 'User',
        width: 'w-[30%]',
        mobile: 'title',
        sortValue: (member) => member.full_name?.trim() || member.email,
        cell: (member) => (
          <>
            <div className="truncate font-medium text-gray-900">
              {member.full_name?.trim() || (
                <span className="font-normal text-gray-500 italic">No name set</span>
              )}
              {member.id === currentUserId && (
                <span className="ml-2 text-xs font-normal text-gray-500">(you)</span>
              )}
            </div>
            <div className="truncate text-gray-500" title={member.email}>
              {member.email}
            </div>
          </>
        ),
      },
      {
        key: 'role',
        header: 'Role',
        mobile: 'detail',
        sortValue: (member) => ROLE_ORDER[member.role],
        cell: (member) =>
          canChangeRoles && member.id !== currentUserId && member.role !== 'master_admin' ? (
            <Select
              aria-label={`Role of ${member.email}`}
              value={member.role}
              disabled={busyIds.has(member.id)}
              onChange={(event) => onChangeRole(member.id, event.target.value as ChangeableRole)}
              className="inline-block w-auto min-w-24 py-1 pr-8 pl-2"
            >
              <option value="user">User</option>
              <option value="admin">Admin</option>
              <option value="viewer">Viewer</option>
            </Select>
          ) : (
            <RoleBadge role={member.role} />
          ),
      },
      {
        key: 'status',
        header: 'Status',
        mobile: 'detail',
        sortValue: (member) => (member.is_active ? 0 : 1),
        cell: (member) => (
          <span
            data-tone={member.is_active ? 'success' : 'danger'}
            className="inline-flex rounded-full bg-tone-100 px-2 py-0.5 text-xs font-medium text-tone-800"
          >
            {member.is_active ? 'Active' : 'Inactive'}
          </span>
        ),
      },
      {
        key: 'last-login',
        header: 'Last Login',
        sortValue: (member) => member.last_login,
        cell: (member) => (member.last_login ? formatDate(member.last_login) : 'Never'),
      },
      {
        key: 'joined',
        header: 'Joined',
        sortValue: (member) => member.created_at,
        cell: (member) => formatDate(member.created_at),
      },
    ],
    [currentUserId, canChangeRoles, busyIds, onChangeRole],
  );

  return (
    <DataTable
      label="Team members table"
      caption="Members of your organization"
      columns={columns}
      rows={members}
      rowKey={(member) => member.id}
      actionsWidth="w-[26%]"
      rowActions={(member) => (
        <div className="flex flex-wrap gap-2">
          {onMakeMasterAdmin && member.role === 'admin' && member.is_active && (
            <Button
              variant="secondary"
              size="sm"
              icon={Crown}
              onClick={() => onMakeMasterAdmin(member.id, member.email)}
              disabled={busyIds.has(member.id)}
            >
              Make master admin<span className="sr-only"> {member.email}</span>
            </Button>
          )}
          {onRemoveTwoFactor && member.id !== currentUserId && twoFactorIds?.has(member.id) && (
            <Button
              variant="secondary"
              size="sm"
              icon={ShieldOff}
              onClick={() => onRemoveTwoFactor(member.id, member.email)}
              disabled={busyIds.has(member.id)}
            >
              Remove two-factor<span className="sr-only"> {member.email}</span>
            </Button>
          )}
          {/* A master admin can help another master admin back in (issue 24). */}
          {(actionable(member) || (canChangeRoles && member.id !== currentUserId)) &&
            member.is_active && (
              <Button
                variant="secondary"
                size="sm"
                icon={KeyRound}
                onClick={() => onSendPasswordReset(member.id, member.email)}
                disabled={busyIds.has(member.id)}
              >
                Reset password<span className="sr-only"> {member.email}</span>
              </Button>
            )}
          {actionable(member) &&
            (member.is_active ? (
              <Button
                variant="destructive-outline"
                size="sm"
                icon={UserX}
                onClick={() => onDeactivate(member.id)}
                disabled={busyIds.has(member.id)}
              >
                Deactivate<span className="sr-only"> {member.email}</span>
              </Button>
            ) : (
              <Button
                variant="secondary"
                size="sm"
                icon={UserCheck}
                onClick={() => onReactivate(member.id)}
                disabled={busyIds.has(member.id)}
              >
                Reactivate<span className="sr-only"> {member.email}</span>
              </Button>
            ))}
        </div>
      )}
    />
  );
}
