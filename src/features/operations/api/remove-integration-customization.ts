import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Restores a built-in integration's original details by removing the organisation's edit. */
export async function removeIntegrationCustomization(integrationKey: string): Promise<void> {
  await succeeded(
    supabase().from('integration_customizations').delete().eq('integration_key', integrationKey),
  );
}
