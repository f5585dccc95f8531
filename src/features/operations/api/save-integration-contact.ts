import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
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
 * Saving an integration's contact (or removing it when every field is blank), for the contact
 * dialog's save; the contacts are read again.
 */
export function useSaveContact(organizationId: string | null) {
  const queryClient = useQueryClient();
  return useCallback(
    async (integrationKey: string, contact: ContactDetails) => {
      if (!organizationId) throw new Error('No organization found');
      const empty = Object.values(contact).every((value) => !value);
      if (empty) await removeIntegrationContact(integrationKey);
      else await saveIntegrationContact(organizationId, integrationKey, contact);
      await queryClient.invalidateQueries({ queryKey: operationsKeys.contacts });
    },
    [organizationId, queryClient],
  );
}
