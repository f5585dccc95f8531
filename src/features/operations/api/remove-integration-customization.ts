import { supabase } from '../../../lib/supabase.ts';

/** Restores a built-in integration's original details by removing the organisation's edit. */
export async function removeIntegrationCustomization(integrationKey: string): Promise<void> {
  const { error } = await supabase()
    .from('integration_customizations')
    .delete()
    .eq('integration_key', integrationKey);
  if (error) throw new Error(error.message);
}
