import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import type { IntegrationContact } from '../lib/integration-view.ts';
import { operationsKeys } from './query-keys.ts';
import { removeIntegrationContact } from './remove-integration-contact.ts';
import { succeeded } from '../../../lib/errors.ts';

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
  await succeeded(
    supabase()
      .from('integration_contacts')
      .upsert(
        { organization_id: organizationId, integration_key: integrationKey, ...contact },
        { onConflict: 'organization_id,integration_key' },
      ),
  );
}

/**
 * Saving an integration's contact for the whole organisation (admins); a contact whose fields
 * were all cleared is removed rather than kept empty.
 */
export function useSaveIntegrationContact(organizationId: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { integrationKey: string; contact: ContactDetails }) => {
      if (!organizationId) throw new Error('No organization found');
      const empty = Object.values(input.contact).every((value) => !value);
      if (empty) await removeIntegrationContact(input.integrationKey);
      else await saveIntegrationContact(organizationId, input.integrationKey, input.contact);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationsKeys.contacts }),
  });
}
