import { useCallback } from 'react';
import type { OperationsCategoryKey } from '../../../config/operations-categories.ts';
import { useCreateCustomIntegration } from '../api/create-custom-integration.ts';
import { useDeleteCustomIntegration } from '../api/delete-custom-integration.ts';
import { useRemoveIntegrationCustomization } from '../api/remove-integration-customization.ts';
import { useSaveIntegrationCustomization } from '../api/save-integration-customization.ts';
import { useUpdateCustomIntegration } from '../api/update-custom-integration.ts';
import type { IntegrationDetails } from '../lib/integration-draft.ts';
import type { IntegrationView } from '../lib/integration-view.ts';

/**
 * A master admin's changes to the integration cards of a category, saved for the whole
 * organisation; the cards refresh from what each write invalidates. They throw with the
 * server's message, which the edit dialog shows.
 */
export function useIntegrationEditor(
  organizationId: string | null,
  category: OperationsCategoryKey,
) {
  const create = useCreateCustomIntegration().mutateAsync;
  const update = useUpdateCustomIntegration().mutateAsync;
  const customize = useSaveIntegrationCustomization().mutateAsync;
  const deleteCustom = useDeleteCustomIntegration().mutateAsync;
  const restore = useRemoveIntegrationCustomization().mutateAsync;

  /** Saves `details` for an existing card, or adds a new custom integration (`target` null). */
  const save = useCallback(
    async (target: IntegrationView | null, details: IntegrationDetails) => {
      if (!organizationId) throw new Error('No organization found');
      if (!target) await create({ organizationId, category, details });
      else if (target.customId) await update({ id: target.customId, details });
      else await customize({ organizationId, key: target.key, details });
    },
    [organizationId, category, create, update, customize],
  );

  /** Deletes a custom integration, or restores a built-in one's original details. */
  const remove = useCallback(
    async (target: IntegrationView) => {
      if (target.customId) await deleteCustom({ id: target.customId, contactKey: target.key });
      else await restore(target.key);
    },
    [deleteCustom, restore],
  );

  return { save, remove };
}
