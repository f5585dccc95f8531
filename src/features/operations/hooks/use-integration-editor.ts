import { useCallback } from 'react';
import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import { createCustomIntegration } from '../api/create-custom-integration.ts';
import { deleteCustomIntegration } from '../api/delete-custom-integration.ts';
import { removeIntegrationContact } from '../api/remove-integration-contact.ts';
import { removeIntegrationCustomization } from '../api/remove-integration-customization.ts';
import { saveIntegrationCustomization } from '../api/save-integration-customization.ts';
import { updateCustomIntegration } from '../api/update-custom-integration.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import type { IntegrationView } from '../lib/integration-view.ts';

/**
 * A master admin's changes to the integration cards of a category, saved for the whole
 * organisation; each reloads the cards once it succeeded. They throw with the server's
 * message, which the edit dialog shows.
 */
export function useIntegrationEditor(
  organizationId: string | null,
  category: OperationsCategoryKey,
  reload: () => Promise<void>,
) {
  const requireOrganization = useCallback(() => {
    if (!organizationId) throw new Error('No organization found');
    return organizationId;
  }, [organizationId]);

  /** Saves `details` for an existing card, or adds a new custom integration (`target` null). */
  const save = useCallback(
    async (target: IntegrationView | null, details: IntegrationDetails) => {
      const organization = requireOrganization();
      if (!target) await createCustomIntegration(organization, category, details);
      else if (target.customId) await updateCustomIntegration(target.customId, details);
      else await saveIntegrationCustomization(organization, target.key, details);
      await reload();
    },
    [requireOrganization, category, reload],
  );

  /** Deletes a custom integration, or restores a built-in one's original details. */
  const remove = useCallback(
    async (target: IntegrationView) => {
      if (target.customId) {
        await deleteCustomIntegration(target.customId);
        // Its contact belongs to nothing any more.
        await removeIntegrationContact(target.key).catch(() => undefined);
      } else {
        await removeIntegrationCustomization(target.key);
      }
      await reload();
    },
    [reload],
  );

  return { save, remove };
}
