import { supabase } from '../../../lib/supabase.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import { succeeded } from '../../../lib/errors.ts';

/**
 * Saves a master admin's edit of a built-in integration for the whole organisation: one row per
 * integration key, replaced on every save.
 */
export async function saveIntegrationCustomization(
  organizationId: string,
  integrationKey: string,
  details: IntegrationDetails,
): Promise<void> {
  await succeeded(
    supabase()
      .from('integration_customizations')
      .upsert(
        { organization_id: organizationId, integration_key: integrationKey, ...details },
        { onConflict: 'organization_id,integration_key' },
      ),
  );
}
