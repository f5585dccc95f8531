import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import { supabase } from '../../../lib/supabase.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import type { CustomIntegration } from '../lib/integration-view.ts';
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
