import { XCircle } from 'lucide-react';
import { useMemo } from 'react';
import { RoleBadge } from '../../../components/role-badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { formatDate } from '../../../lib/format.ts';
import type { PendingInvitation } from '../api/list-pending-invitations.ts';
import { inviterName } from '../lib/inviter-name.ts';

export interface InvitationsTableProps {
  invitations: PendingInvitation[];
  busyIds: ReadonlySet<string>;
  onCancel: (invitationId: string) => void;
}

/** Invitations nobody has accepted yet (spec §2); the page shows it only when there are any. */
export function InvitationsTable({ invitations, busyIds, onCancel }: InvitationsTableProps) {
  const columns = useMemo<DataTableColumn<PendingInvitation>[]>(
    () => [
      {
        key: 'email',
        header: 'Email',
        width: 'w-[26%]',
        mobile: 'title',
        sortValue: (invitation) => invitation.email,
        cell: (invitation) => (
          <span className="block truncate text-gray-900" title={invitation.email}>
            {invitation.email}
          </span>
        ),
      },
      {
        key: 'role',
        header: 'Role',
        mobile: 'detail',
        sortValue: (invitation) => invitation.role,
        cell: (invitation) => <RoleBadge role={invitation.role} />,
      },
      {
        key: 'invited-by',
        header: 'Invited By',
        sortValue: (invitation) => inviterName(invitation.invited_by_profile),
        cell: (invitation) => (
          <span className="block truncate">{inviterName(invitation.invited_by_profile)}</span>
        ),
      },
      {
        key: 'sent',
        header: 'Sent',
        sortValue: (invitation) => invitation.created_at,
        cell: (invitation) => formatDate(invitation.created_at),
      },
      {
        key: 'expires',
        header: 'Expires',
        mobile: 'detail',
        sortValue: (invitation) => invitation.expires_at,
        cell: (invitation) => (
          <>
            {formatDate(invitation.expires_at)}
            {new Date(invitation.expires_at).getTime() <= Date.now() && (
              <span
                data-tone="danger"
                className="ml-2 rounded-full bg-tone-100 px-2 py-0.5 text-xs font-medium text-tone-800"
              >
                Expired
              </span>
            )}
          </>
        ),
      },
    ],
    [],
  );

  return (
    <section aria-labelledby="pending-invitations-heading" className="space-y-3">
      <h2 id="pending-invitations-heading" className="text-lg font-semibold text-gray-900">
        Pending Invitations
      </h2>
      <DataTable
        label="Pending invitations table"
        columns={columns}
        rows={invitations}
        rowKey={(invitation) => invitation.id}
        rowActions={(invitation) => (
          <Button
            variant="destructive-outline"
            size="sm"
            icon={XCircle}
            onClick={() => onCancel(invitation.id)}
            disabled={busyIds.has(invitation.id)}
          >
            Cancel<span className="sr-only"> invitation for {invitation.email}</span>
          </Button>
        )}
      />
    </section>
  );
}
