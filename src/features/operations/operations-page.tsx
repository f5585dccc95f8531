import { FileText, Layers, Plug, ShieldCheck } from 'lucide-react';
import { Spinner } from '../../components/ui/spinner.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { ErrorPanel } from '../../components/ui/form-error.tsx';
import { OPERATIONS_CATEGORIES } from '../../config/operations-categories.ts';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';
import { AccessManagementNote } from './components/access-management-note.tsx';
import { OperationsTiles } from './components/operations-tiles.tsx';
import { useOperationsOverview } from './hooks/use-operations-overview.ts';

/** A figure still loading, or one that failed to load. */
function figure(value: number | undefined, error: string | null) {
  if (value !== undefined) return value;
  return error ? '—' : '…';
}

/** /operations: the Operations Center (product-spec §2). */
export function OperationsPage() {
  const { profile, profileLoading } = useSession();
  const overview = useOperationsOverview(Boolean(profile?.organization_id));
  if (profileLoading) return <Spinner />;
  const isAdmin = isAdminRole(profile?.role);

  return (
    <div className="space-y-6">
      <header>
        <h1 className="text-2xl font-bold text-gray-900 sm:text-3xl">Operations Center</h1>
        <p className="mt-1 text-gray-600">
          The business tools of your organization, grouped by area, with your team’s contacts and
          documents for each.
        </p>
      </header>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Operations" value={OPERATIONS_CATEGORIES.length} icon={Layers} />
        <StatCard
          label="Active Integrations"
          value={figure(overview.data?.activeIntegrations, overview.error)}
          icon={Plug}
          tone="green"
        />
        <StatCard
          label="Documents"
          value={figure(overview.data?.documents, overview.error)}
          icon={FileText}
          tone="purple"
        />
        <StatCard
          label="Access Level"
          value={isAdmin ? 'Admin' : 'User'}
          icon={ShieldCheck}
          tone="orange"
        />
      </div>
      {overview.error && (
        <ErrorPanel title={`Some figures could not be loaded: ${overview.error}`} />
      )}

      <OperationsTiles />
      <AccessManagementNote isAdmin={isAdmin} />
    </div>
  );
}
