import { UserCheck, UserX } from 'lucide-react';
import { RoleBadge } from '../../../components/role-badge.tsx';
import type { Member } from '../api/members.ts';
import { formatDate } from '../lib/format.ts';

export interface MembersTableProps {
  members: Member[];
  currentUserId: string;
  /** Master admins change roles (spec §6). */
  canChangeRoles: boolean;
  busyId: string | null;
  onChangeRole: (userId: string, role: 'user' | 'admin') => void;
  onDeactivate: (userId: string) => void;
  onReactivate: (userId: string) => void;
}

const headerClass = 'px-4 py-3 text-left text-xs font-medium tracking-wide text-gray-500 uppercase';
const cellClass = 'px-4 py-3 text-sm whitespace-nowrap';

/**
 * The members of the organisation (spec §2). Nobody acts on their own row or on a master
 * admin's; only master admins see the role select.
 */
export function MembersTable({
  members,
  currentUserId,
  canChangeRoles,
  busyId,
  onChangeRole,
  onDeactivate,
  onReactivate,
}: MembersTableProps) {
  return (
    // Focusable, so that keyboard users can scroll the table sideways on a small screen; named
    // apart from the section around it, so the two landmarks can be told apart. `relative`
    // keeps the visually hidden texts inside it from widening the page on a phone.
    <div
      role="region"
      aria-label="Team members table"
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-gray-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      <table className="min-w-full divide-y divide-gray-200">
        <caption className="sr-only">Members of your organization</caption>
        <thead className="bg-gray-50">
          <tr>
            <th scope="col" className={headerClass}>
              User
            </th>
            <th scope="col" className={headerClass}>
              Role
            </th>
            <th scope="col" className={headerClass}>
              Status
            </th>
            <th scope="col" className={headerClass}>
              Last Login
            </th>
            <th scope="col" className={headerClass}>
              Joined
            </th>
            <th scope="col" className={headerClass}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200">
          {members.map((member) => {
            const isSelf = member.id === currentUserId;
            const actionable = !isSelf && member.role !== 'master_admin';
            const busy = busyId === member.id;
            return (
              <tr key={member.id}>
                <td className={cellClass}>
                  <div className="font-medium text-gray-900">
                    {member.full_name?.trim() || (
                      <span className="font-normal text-gray-500 italic">No name set</span>
                    )}
                    {isSelf && (
                      <span className="ml-2 text-xs font-normal text-gray-500">(you)</span>
                    )}
                  </div>
                  <div className="text-gray-500">{member.email}</div>
                </td>
                <td className={cellClass}>
                  {canChangeRoles && actionable ? (
                    <select
                      aria-label={`Role of ${member.email}`}
                      value={member.role}
                      disabled={busy}
                      onChange={(event) =>
                        onChangeRole(member.id, event.target.value as 'user' | 'admin')
                      }
                      className="rounded-md border border-gray-300 py-1 pr-8 pl-2 text-sm focus:border-blue-500 focus:ring-2 focus:ring-blue-500/30 focus:outline-none"
                    >
                      <option value="user">User</option>
                      <option value="admin">Admin</option>
                    </select>
                  ) : (
                    <RoleBadge role={member.role} />
                  )}
                </td>
                <td className={cellClass}>
                  <span
                    className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ${
                      member.is_active ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800'
                    }`}
                  >
                    {member.is_active ? 'Active' : 'Inactive'}
                  </span>
                </td>
                <td className={`${cellClass} text-gray-700`}>
                  {member.last_login ? formatDate(member.last_login) : 'Never'}
                </td>
                <td className={`${cellClass} text-gray-700`}>{formatDate(member.created_at)}</td>
                <td className={cellClass}>
                  {actionable &&
                    (member.is_active ? (
                      <button
                        type="button"
                        onClick={() => onDeactivate(member.id)}
                        disabled={busy}
                        className="inline-flex items-center gap-1 rounded-md px-2 py-1 font-medium text-red-700 hover:bg-red-50 disabled:opacity-60"
                      >
                        <UserX className="h-4 w-4" aria-hidden="true" />
                        Deactivate<span className="sr-only"> {member.email}</span>
                      </button>
                    ) : (
                      <button
                        type="button"
                        onClick={() => onReactivate(member.id)}
                        disabled={busy}
                        className="inline-flex items-center gap-1 rounded-md px-2 py-1 font-medium text-green-700 hover:bg-green-50 disabled:opacity-60"
                      >
                        <UserCheck className="h-4 w-4" aria-hidden="true" />
                        Reactivate<span className="sr-only"> {member.email}</span>
                      </button>
                    ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
