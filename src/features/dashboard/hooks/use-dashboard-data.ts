import { useCallback, useEffect, useState } from 'react';
import {
  fetchDocumentStats,
  listRecentDocuments,
  listUpcomingRenewals,
  type DashboardDocument,
  type DocumentStats,
} from '../api/dashboard-data.ts';

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
 */
export function useDashboardData(organizationId: string | null) {
  const [data, setData] = useState<DashboardData>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (!organizationId) return;
    const controller = new AbortController();
    const { signal } = controller;
    setData({ status: 'loading' });
    Promise.all([
      fetchDocumentStats(signal),
      listRecentDocuments(signal),
      listUpcomingRenewals(signal),
    ]).then(
      ([stats, recent, renewals]) => setData({ status: 'ready', stats, recent, renewals }),
      (error: unknown) => {
        if (signal.aborted) return;
        setData({ status: 'error', error: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [organizationId, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data, reload };
}
