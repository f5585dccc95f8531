import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import { supabase } from '../../../lib/supabase.ts';
import type { CustomIntegration } from '../lib/integration-view.ts';
import { operationsKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** The organisation's own integrations of one operations category, oldest first. */
export async function listCustomIntegrations(
  category: OperationsCategoryKey,
): Promise<CustomIntegration[]> {
  const { data } = await succeeded(
    supabase()
      .from('custom_integrations')
      .select('*')
      .eq('operations_category', category)
      .order('created_at', { ascending: true }),
  );
  return data ?? [];
}

export const customIntegrationsQueryOptions = (category: OperationsCategoryKey) =>
  queryOptions({
    queryKey: operationsKeys.customIntegrationsOf(category),
    queryFn: () => listCustomIntegrations(category),
  });

export function useCustomIntegrations(
  category: OperationsCategoryKey,
  { enabled }: { enabled: boolean },
) {
  return useQuery({ ...customIntegrationsQueryOptions(category), enabled });
}
