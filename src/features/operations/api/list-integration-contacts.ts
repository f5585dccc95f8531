import { supabase } from '../../../lib/supabase.ts';
import type { IntegrationContact } from '../lib/integration-view.ts';

/** The organisation's saved contacts of the given integrations. */
export async function listIntegrationContacts(
  integrationKeys: readonly string[],
): Promise<IntegrationContact[]> {
  if (integrationKeys.length === 0) return [];
  const { data, error } = await supabase()
    .from('integration_contacts')
    .select('*')
    .in('integration_key', [...integrationKeys]);
  if (error) throw new Error(error.message);
  return data ?? [];
}
