import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { operationsKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** How many integrations the organisation has added across all operations categories. */
export async function countCustomIntegrations(): Promise<number> {
  const { count } = await succeeded(
    supabase().from('custom_integrations').select('id', { count: 'exact', head: true }),
  );
  return count ?? 0;
}

export const customIntegrationCountQueryOptions = () =>
  queryOptions({
    queryKey: operationsKeys.customIntegrationCount(),
    queryFn: countCustomIntegrations,
  });

export function useCustomIntegrationCount({ enabled }: { enabled: boolean }) {
  return useQuery({ ...customIntegrationCountQueryOptions(), enabled });
}
