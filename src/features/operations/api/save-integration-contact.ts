import { supabase } from '../../../lib/supabase.ts';
import type { IntegrationContact } from '../lib/integration-view.ts';

/** The contact fields an admin edits (product-spec §3, Integration contact). */
export type ContactDetails = Pick<
  IntegrationContact,
  'name' | 'title' | 'email' | 'phone' | 'company' | 'notes'
>;

/** Saves the contact of an integration for the whole organisation (one per integration). */
export async function saveIntegrationContact(
  organizationId: string,
  integrationKey: string,
  contact: ContactDetails,
): Promise<void> {
  const { error } = await supabase()
    .from('integration_contacts')
    .upsert(
      { organization_id: organizationId, integration_key: integrationKey, ...contact },
      { onConflict: 'organization_id,integration_key' },
    );
  if (error) throw new Error(error.message);
}
