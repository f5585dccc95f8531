import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import { createCustomIntegration } from '../api/create-custom-integration.ts';
import { deleteCustomIntegration } from '../api/delete-custom-integration.ts';
import { operationsKeys } from '../api/query-keys.ts';
import { removeIntegrationContact } from '../api/remove-integration-contact.ts';
import { removeIntegrationCustomization } from '../api/remove-integration-customization.ts';
import { saveIntegrationCustomization } from '../api/save-integration-customization.ts';
import { updateCustomIntegration } from '../api/update-custom-integration.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import type { IntegrationView } from '../lib/integration-view.ts';

/**
 * A master admin's changes to the integration cards of a category, saved for the whole
 * organisation; the cards refresh from what each write invalidates. They throw with the
 * server's message: the edit dialog's save is the one mutation, whose failure is the notice.
 */
export function useIntegrationEditor(
  organizationId: string | null,
  category: OperationsCategoryKey,
) {
  const queryClient = useQueryClient();
  const refresh = useCallback(
    (...keys: (readonly string[])[]) =>
      Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
    [queryClient],
  );

  /** Saves `details` for an existing card, or adds a new custom integration (`target` null). */
  const save = useCallback(
    async (target: IntegrationView | null, details: IntegrationDetails) => {
      if (!organizationId) throw new Error('No organization found');
      if (!target) await createCustomIntegration(organizationId, category, details);
      else if (target.customId) await updateCustomIntegration(target.customId, details);
      else {
        await saveIntegrationCustomization(organizationId, target.key, details);
        return void (await refresh(operationsKeys.customizations));
      }
      await refresh(operationsKeys.customIntegrations);
    },
    [organizationId, category, refresh],
  );

  /**
   * Deletes a custom integration (and its contact, which belongs to nothing any more), or
   * restores a built-in one's original details.
   */
  const remove = useCallback(
    async (target: IntegrationView) => {
      if (target.customId) {
        await deleteCustomIntegration(target.customId);
        await removeIntegrationContact(target.key).catch(() => undefined);
        await refresh(operationsKeys.customIntegrations, operationsKeys.contacts);
      } else {
        await removeIntegrationCustomization(target.key);
        await refresh(operationsKeys.customizations);
      }
    },
    [refresh],
  );

  return { save, remove };
}
