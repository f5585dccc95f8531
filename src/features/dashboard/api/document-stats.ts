import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { dashboardKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** The four dashboard counters (rpc `document_stats`, docs/data-model.md). */
export interface DocumentStats {
  total: number;
  expiringSoon: number;
  overdue: number;
  categories: number;
}

/**
 * The counters, computed by the database over the caller's organisation: Total Documents,
 * Expiring Soon (today up to 30 days ahead), Overdue (before today) and Categories in use.
 */
export async function fetchDocumentStats(signal?: AbortSignal): Promise<DocumentStats> {
  let query = supabase().rpc('document_stats');
  if (signal) query = query.abortSignal(signal);
  const { data } = await succeeded(query, 'Failed to load document statistics');
  const row = (Array.isArray(data) ? data[0] : data) ?? null;
  return {
    total: row?.total ?? 0,
    expiringSoon: row?.expiring_soon ?? 0,
    overdue: row?.overdue ?? 0,
    categories: row?.categories ?? 0,
  };
}

export const documentStatsQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.stats(),
    queryFn: ({ signal }) => fetchDocumentStats(signal),
  });

export function useDocumentStats({ enabled }: { enabled: boolean }) {
  return useQuery({ ...documentStatsQueryOptions(), enabled });
}
