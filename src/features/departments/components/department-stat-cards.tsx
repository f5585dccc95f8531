import { BookOpen, FileText, FolderKanban, Users } from 'lucide-react';
import { StatCard } from '../../../components/stat-card.tsx';

/** The specification's fixed figures (§9): there are no projects or resources to count yet. */
export const ACTIVE_PROJECTS = 5;
export const RESOURCES = 12;

function figure(value: number | undefined, failed: boolean) {
  if (value !== undefined) return value;
  return failed ? '—' : '…';
}

/** The four cards of a department page (product-spec §2). */
export function DepartmentStatCards({
  documents,
  documentsFailed,
  teamMembers,
  teamMembersFailed,
}: {
  documents: number | undefined;
  documentsFailed: boolean;
  teamMembers: number | undefined;
  teamMembersFailed: boolean;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard label="Documents" value={figure(documents, documentsFailed)} icon={FileText} />
      <StatCard
        label="Team Members"
        value={figure(teamMembers, teamMembersFailed)}
        icon={Users}
        tone="green"
      />
      <StatCard label="Active Projects" value={ACTIVE_PROJECTS} icon={FolderKanban} tone="purple" />
      <StatCard label="Resources" value={RESOURCES} icon={BookOpen} tone="orange" />
    </div>
  );
}
