import { XCircle } from 'lucide-react';
import { RoleBadge } from '../../../components/role-badge.tsx';
import type { PendingInvitation } from '../api/invitations.ts';
import { formatDate, inviterName } from '../lib/format.ts';

export interface InvitationsTableProps {
  invitations: PendingInvitation[];
  busyId: string | null;
  onCancel: (invitationId: string) => void;
}

const headerClass = 'px-4 py-3 text-left text-xs font-medium tracking-wide text-gray-500 uppercase';
const cellClass = 'px-4 py-3 text-sm whitespace-nowrap';

/** Invitations nobody has accepted yet (spec §2); the page shows it only when there are any. */
export function InvitationsTable({ invitations, busyId, onCancel }: InvitationsTableProps) {
  const now = Date.now();
  return (
    <section aria-labelledby="pending-invitations-heading">
      <h2 id="pending-invitations-heading" className="text-lg font-semibold text-gray-900">
        Pending Invitations
      </h2>
      <div
        role="region"
        aria-label="Pending invitations table"
        tabIndex={0}
        className="relative mt-3 overflow-x-auto rounded-lg border border-gray-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-blue-600"
      >
        <table className="min-w-full divide-y divide-gray-200">
          <thead className="bg-gray-50">
            <tr>
              <th scope="col" className={headerClass}>
                Email
              </th>
              <th scope="col" className={headerClass}>
                Role
              </th>
              <th scope="col" className={headerClass}>
                Invited By
              </th>
              <th scope="col" className={headerClass}>
                Sent
              </th>
              <th scope="col" className={headerClass}>
                Expires
              </th>
              <th scope="col" className={headerClass}>
                Actions
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-200">
            {invitations.map((invitation) => {
              const expired = new Date(invitation.expires_at).getTime() <= now;
              return (
                <tr key={invitation.id}>
                  <td className={`${cellClass} text-gray-900`}>{invitation.email}</td>
                  <td className={cellClass}>
                    <RoleBadge role={invitation.role} />
                  </td>
                  <td className={`${cellClass} text-gray-700`}>
                    {inviterName(invitation.invited_by_profile)}
                  </td>
                  <td className={`${cellClass} text-gray-700`}>
                    {formatDate(invitation.created_at)}
                  </td>
                  <td className={`${cellClass} text-gray-700`}>
                    {formatDate(invitation.expires_at)}
                    {expired && (
                      <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">
                        Expired
                      </span>
                    )}
                  </td>
                  <td className={cellClass}>
                    <button
                      type="button"
                      onClick={() => onCancel(invitation.id)}
                      disabled={busyId === invitation.id}
                      className="inline-flex items-center gap-1 rounded-md px-2 py-1 font-medium text-red-700 hover:bg-red-50 disabled:opacity-60"
                    >
                      <XCircle className="h-4 w-4" aria-hidden="true" />
                      Cancel<span className="sr-only"> invitation for {invitation.email}</span>
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
