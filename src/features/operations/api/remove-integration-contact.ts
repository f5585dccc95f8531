import { supabase } from '../../../lib/supabase.ts';

/** Removes the saved contact of an integration (all its fields were cleared). */
export async function removeIntegrationContact(integrationKey: string): Promise<void> {
  const { error } = await supabase()
    .from('integration_contacts')
    .delete()
    .eq('integration_key', integrationKey);
  if (error) throw new Error(error.message);
}
