import { AlertTriangle, Clock, FileText, FolderOpen } from 'lucide-react';
import { StatCard } from '../../../components/stat-card.tsx';
import { paths } from '../../../config/paths.ts';
import type { DocumentStats } from '../api/document-stats.ts';

/** Total Documents, Expiring Soon, Overdue and Categories (spec §2 Dashboard). */
export function DashboardStats({ stats }: { stats: DocumentStats }) {
  return (
    <div
      className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4"
      data-testid="dashboard-stats"
    >
      <StatCard label="Total Documents" value={stats.total.toLocaleString()} icon={FileText} />
      <StatCard
        label="Expiring Soon"
        value={stats.expiringSoon.toLocaleString()}
        icon={Clock}
        tone="yellow"
        hint="Within the next 30 days"
        to={paths.documentsExpiring('soon')}
      />
      <StatCard
        label="Overdue"
        value={stats.overdue.toLocaleString()}
        icon={AlertTriangle}
        tone="red"
        hint="Past their expiry date"
        to={paths.documentsExpiring('overdue')}
      />
      <StatCard
        label="Categories"
        value={stats.categories.toLocaleString()}
        icon={FolderOpen}
        tone="purple"
      />
    </div>
  );
}
