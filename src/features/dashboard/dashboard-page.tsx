import { AlertTriangle, Upload } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths.ts';
import { utcDateString } from '../../lib/expiry.ts';
import { useSession } from '../../lib/session.tsx';
import { DocumentPreviewModal } from '../documents/components/document-preview-modal.tsx';
import { WelcomePanel } from '../organization/components/welcome-panel.tsx';
import type { DashboardDocument } from './api/dashboard-data.ts';
import { BusinessOperations } from './components/business-operations.tsx';
import { DashboardSkeleton } from './components/dashboard-skeleton.tsx';
import { DashboardStats } from './components/dashboard-stats.tsx';
import { DepartmentTiles } from './components/department-tiles.tsx';
import { RecentDocuments } from './components/recent-documents.tsx';
import { UpcomingRenewals } from './components/upcoming-renewals.tsx';
import { VersionLabels } from './components/version-labels.tsx';
import { useDashboardData } from './hooks/use-dashboard-data.ts';

/** `/`: the organisation at a glance (spec §2 Dashboard). */
export function DashboardPage() {
  const { organization, profileLoading } = useSession();
  const { data, reload } = useDashboardData(organization?.id ?? null);
  const [previewing, setPreviewing] = useState<DashboardDocument | null>(null);

  if (profileLoading) return <DashboardSkeleton />;
  if (!organization) return <WelcomePanel />;
  if (data.status === 'loading') return <DashboardSkeleton />;

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm font-medium text-gray-500">Dashboard</p>
          <h1 className="text-2xl font-semibold break-words text-gray-900">{organization.name}</h1>
        </div>
        <Link
          to={paths.upload}
          className="inline-flex items-center justify-center gap-2 rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
        >
          <Upload className="h-4 w-4" aria-hidden="true" />
          Upload Documents
        </Link>
      </div>

      {data.status === 'error' ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4">
          <div className="flex items-start gap-3">
            <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-red-500" aria-hidden="true" />
            <div>
              <p className="font-medium text-red-800">
                The dashboard could not be loaded: {data.error}
              </p>
              <button
                type="button"
                onClick={reload}
                className="mt-2 rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-100"
              >
                Try again
              </button>
            </div>
          </div>
        </div>
      ) : (
        <DashboardStats stats={data.stats} />
      )}

      <DepartmentTiles />
      <BusinessOperations />

      {data.status === 'ready' && (
        <div className="grid gap-6 lg:grid-cols-2">
          <RecentDocuments documents={data.recent} onOpen={setPreviewing} />
          <UpcomingRenewals documents={data.renewals} today={utcDateString()} />
        </div>
      )}

      <VersionLabels />

      {previewing && (
        <DocumentPreviewModal
          key={previewing.id}
          document={previewing}
          onClose={() => setPreviewing(null)}
        />
      )}
    </div>
  );
}
