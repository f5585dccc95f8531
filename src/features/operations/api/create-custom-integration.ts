import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import { supabase } from '../../../lib/supabase.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import type { CustomIntegration } from '../lib/integration-view.ts';
import { operationsKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Adds an integration to an operations category for the whole organisation. */
export async function createCustomIntegration(
  organizationId: string,
  category: OperationsCategoryKey,
  details: IntegrationDetails,
): Promise<CustomIntegration> {
  const { data } = await succeeded(
    supabase()
      .from('custom_integrations')
      .insert({ organization_id: organizationId, operations_category: category, ...details })
      .select('*')
      .single(),
  );
  return data;
}

/** Adding an integration to a category; every list and count of them refreshes. */
export function useCreateCustomIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      organizationId: string;
      category: OperationsCategoryKey;
      details: IntegrationDetails;
    }) => createCustomIntegration(input.organizationId, input.category, input.details),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationsKeys.customIntegrations }),
  });
}
