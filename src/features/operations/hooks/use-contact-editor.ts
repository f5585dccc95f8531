import { useCallback } from 'react';
import { removeIntegrationContact } from '../api/remove-integration-contact.ts';
import { saveIntegrationContact, type ContactDetails } from '../api/save-integration-contact.ts';

/**
 * Saves an integration's contact for the whole organisation (admins); a contact whose fields
 * were all cleared is removed rather than kept empty. Reloads the cards afterwards.
 */
export function useContactEditor(organizationId: string | null, reload: () => Promise<void>) {
  return useCallback(
    async (integrationKey: string, contact: ContactDetails) => {
      if (!organizationId) throw new Error('No organization found');
      const empty = Object.values(contact).every((value) => !value);
      if (empty) await removeIntegrationContact(integrationKey);
      else await saveIntegrationContact(organizationId, integrationKey, contact);
      await reload();
    },
    [organizationId, reload],
  );
}
