import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { DASHBOARD_LIST_SIZE, LIST_COLUMNS, type DashboardDocument } from './dashboard-document.ts';
import { dashboardKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** The five newest documents. */
export async function listRecentDocuments(signal?: AbortSignal): Promise<DashboardDocument[]> {
  let query = supabase()
    .from('documents')
    .select(LIST_COLUMNS)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(DASHBOARD_LIST_SIZE);
  if (signal) query = query.abortSignal(signal);
  const { data } = await succeeded(query, 'Failed to load recent documents');
  return data ?? [];
}

export const recentDocumentsQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.recent(),
    queryFn: ({ signal }) => listRecentDocuments(signal),
  });

export function useRecentDocuments({ enabled }: { enabled: boolean }) {
  return useQuery({ ...recentDocumentsQueryOptions(), enabled });
}
