import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import type { IntegrationContact } from '../lib/integration-view.ts';
import { operationsKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** The organisation's saved contacts of the given integrations. */
export async function listIntegrationContacts(
  integrationKeys: readonly string[],
): Promise<IntegrationContact[]> {
  if (integrationKeys.length === 0) return [];
  const { data } = await succeeded(
    supabase()
      .from('integration_contacts')
      .select('*')
      .in('integration_key', [...integrationKeys]),
  );
  return data ?? [];
}

export const integrationContactsQueryOptions = (integrationKeys: readonly string[]) =>
  queryOptions({
    queryKey: operationsKeys.contactsOf(integrationKeys),
    queryFn: () => listIntegrationContacts(integrationKeys),
  });

/**
 * The contacts of the given integrations. When the cards change (an integration added), the
 * contacts already shown stay until those of the new set of cards are in.
 */
export function useIntegrationContacts(
  integrationKeys: readonly string[],
  { enabled }: { enabled: boolean },
) {
  return useQuery({
    ...integrationContactsQueryOptions(integrationKeys),
    enabled,
    placeholderData: keepPreviousData,
  });
}
