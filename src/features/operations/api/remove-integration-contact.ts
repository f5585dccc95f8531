import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Removes the saved contact of an integration (all its fields were cleared). */
export async function removeIntegrationContact(integrationKey: string): Promise<void> {
  await succeeded(
    supabase().from('integration_contacts').delete().eq('integration_key', integrationKey),
  );
}
