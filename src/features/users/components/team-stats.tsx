import { MailPlus, ShieldCheck, UserCheck, Users } from 'lucide-react';
import { StatCard } from '../../../components/stat-card.tsx';
import { isAdminRole } from '../../../lib/roles.ts';
import type { Member } from '../api/list-members.ts';
import type { PendingInvitation } from '../api/list-pending-invitations.ts';

/** Total Users, Active Users, Admins (admin plus master admin) and Pending Invites (spec §2). */
export function TeamStats({
  members,
  invitations,
}: {
  members: Member[];
  invitations: PendingInvitation[];
}) {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard label="Total Users" value={members.length} icon={Users} />
      <StatCard
        label="Active Users"
        value={members.filter((member) => member.is_active).length}
        icon={UserCheck}
        tone="success"
      />
      <StatCard
        label="Admins"
        value={members.filter((member) => isAdminRole(member.role)).length}
        icon={ShieldCheck}
        tone="role-master_admin"
      />
      <StatCard label="Pending Invites" value={invitations.length} icon={MailPlus} tone="amber" />
    </div>
  );
}
