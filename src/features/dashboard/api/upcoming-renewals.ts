import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { DASHBOARD_LIST_SIZE, LIST_COLUMNS, type DashboardDocument } from './dashboard-document.ts';
import { dashboardKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** The five documents whose expiry date comes first (overdue ones included, oldest first). */
export async function listUpcomingRenewals(signal?: AbortSignal): Promise<DashboardDocument[]> {
  let query = supabase()
    .from('documents')
    .select(LIST_COLUMNS)
    .not('expiry_date', 'is', null)
    .order('expiry_date', { ascending: true })
    .order('id', { ascending: true })
    .limit(DASHBOARD_LIST_SIZE);
  if (signal) query = query.abortSignal(signal);
  const { data } = await succeeded(query, 'Failed to load upcoming renewals');
  return data ?? [];
}

export const upcomingRenewalsQueryOptions = () =>
  queryOptions({
    queryKey: dashboardKeys.renewals(),
    queryFn: ({ signal }) => listUpcomingRenewals(signal),
  });

export function useUpcomingRenewals({ enabled }: { enabled: boolean }) {
  return useQuery({ ...upcomingRenewalsQueryOptions(), enabled });
}
