import { errorMessage } from '../../../lib/errors.ts';
import type { DashboardDocument } from '../api/dashboard-document.ts';
import { useDocumentStats, type DocumentStats } from '../api/document-stats.ts';
import { useRecentDocuments } from '../api/recent-documents.ts';
import { useUpcomingRenewals } from '../api/upcoming-renewals.ts';

export type DashboardData =
  | { status: 'loading' }
  | { status: 'error'; error: string }
  | {
      status: 'ready';
      stats: DocumentStats;
      recent: DashboardDocument[];
      renewals: DashboardDocument[];
    };

/**
 * The counters and the two lists of the dashboard, in three small parallel requests: the
 * database counts and picks the five rows, so the cost does not grow with the organisation.
 * The page shows them together: loading until all three are in, or the first failure.
 */
export function useDashboardData(hasOrganization: boolean) {
  const options = { enabled: hasOrganization };
  const stats = useDocumentStats(options);
  const recent = useRecentDocuments(options);
  const renewals = useUpcomingRenewals(options);
  const queries = [stats, recent, renewals];
  const failed = queries.find((query) => query.isError);

  let data: DashboardData;
  if (failed) data = { status: 'error', error: errorMessage(failed.error) };
  else if (stats.data && recent.data && renewals.data) {
    data = { status: 'ready', stats: stats.data, recent: recent.data, renewals: renewals.data };
  } else data = { status: 'loading' };

  const reload = () => {
    for (const query of queries) if (query.isError) void query.refetch();
  };
  return { data, reload };
}
