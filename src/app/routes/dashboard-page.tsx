import { Upload } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { ButtonLink } from '../../components/ui/button-link.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ErrorPanel } from '../../components/ui/form-error.tsx';
import { paths } from '../../config/paths.ts';
import type { DashboardDocument } from '../../features/dashboard/api/dashboard-document.ts';
import { BusinessOperations } from '../../features/dashboard/components/business-operations.tsx';
import { DashboardSkeleton } from '../../features/dashboard/components/dashboard-skeleton.tsx';
import { DashboardStats } from '../../features/dashboard/components/dashboard-stats.tsx';
import { DepartmentTiles } from '../../features/dashboard/components/department-tiles.tsx';
import { RecentDocuments } from '../../features/dashboard/components/recent-documents.tsx';
import { UpcomingRenewals } from '../../features/dashboard/components/upcoming-renewals.tsx';
import { VersionLabels } from '../../features/dashboard/components/version-labels.tsx';
import { useDashboardData } from '../../features/dashboard/hooks/use-dashboard-data.ts';
import { utcDateString } from '../../lib/expiry.ts';
import { isAdminRole } from '../../lib/roles.ts';
import { useSession } from '../../lib/session.tsx';

// Loaded when shown: the welcome only for a member without an organisation, the preview when
// a recent document is opened.
const WelcomePanel = lazy(async () => ({
  default: (await import('../../features/organization/components/welcome-panel.tsx')).WelcomePanel,
}));
// For admins only, and loaded apart so that the dashboard's own JavaScript stays within budget.
const FirstRunChecklist = lazy(async () => ({
  default: (await import('../../features/onboarding/components/first-run-checklist.tsx'))
    .FirstRunChecklist,
}));
const DocumentPreviewModal = lazy(async () => ({
  default: (await import('../../features/documents/components/document-preview-modal.tsx'))
    .DocumentPreviewModal,
}));

/** `/`: the organisation at a glance (spec §2 Dashboard). */
export function DashboardPage() {
  const { organization, profile, profileLoading } = useSession();
  const { data, reload } = useDashboardData(Boolean(organization));
  const [previewing, setPreviewing] = useState<DashboardDocument | null>(null);
  // A Viewer changes nothing (the dashboard does not load the categories: its JavaScript has a
  // budget, tests/build/bundle-budget.test.ts; the upload form explains a category closed to her).
  const mayUpload = profile?.role !== 'viewer';

  if (profileLoading) return <DashboardSkeleton />;
  if (!organization) {
    return (
      <Suspense fallback={<DashboardSkeleton />}>
        <WelcomePanel />
      </Suspense>
    );
  }
  if (data.status === 'loading') return <DashboardSkeleton />;

  return (
    <div className="space-y-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm font-medium text-gray-500">Dashboard</p>
          <h1 className="text-2xl font-semibold break-words text-gray-900">{organization.name}</h1>
        </div>
        {mayUpload && (
          <ButtonLink to={paths.upload} icon={Upload}>
            Upload Documents
          </ButtonLink>
        )}
      </div>

      {isAdminRole(profile?.role) && (
        <Suspense fallback={null}>
          <FirstRunChecklist />
        </Suspense>
      )}

      {data.status === 'error' ? (
        <ErrorPanel
          title={`The dashboard could not be loaded: ${data.error}`}
          actions={
            <Button variant="destructive-outline" size="sm" onClick={reload}>
              Try again
            </Button>
          }
        />
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
        <Suspense fallback={null}>
          <DocumentPreviewModal
            key={previewing.id}
            document={previewing}
            onClose={() => setPreviewing(null)}
          />
        </Suspense>
      )}
    </div>
  );
}
