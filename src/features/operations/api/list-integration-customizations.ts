import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import type { IntegrationCustomization } from '../lib/integration-view.ts';
import { operationsKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** The organisation's customisations of the given built-in integrations. */
export async function listIntegrationCustomizations(
  integrationKeys: readonly string[],
): Promise<IntegrationCustomization[]> {
  if (integrationKeys.length === 0) return [];
  const { data } = await succeeded(
    supabase()
      .from('integration_customizations')
      .select('*')
      .in('integration_key', [...integrationKeys]),
  );
  return data ?? [];
}

export const integrationCustomizationsQueryOptions = (integrationKeys: readonly string[]) =>
  queryOptions({
    queryKey: operationsKeys.customizationsOf(integrationKeys),
    queryFn: () => listIntegrationCustomizations(integrationKeys),
  });

export function useIntegrationCustomizations(
  integrationKeys: readonly string[],
  { enabled }: { enabled: boolean },
) {
  return useQuery({ ...integrationCustomizationsQueryOptions(integrationKeys), enabled });
}
