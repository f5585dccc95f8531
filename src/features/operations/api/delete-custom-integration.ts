import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { operationsKeys } from './query-keys.ts';
import { removeIntegrationContact } from './remove-integration-contact.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Removes one of the organisation's own integrations. */
export async function deleteCustomIntegration(id: string): Promise<void> {
  const { data } = await succeeded(
    supabase().from('custom_integrations').delete().eq('id', id).select('id'),
  );
  if (!data || data.length === 0) throw new Error('This integration could not be deleted.');
}

/** Deleting a custom integration, and its contact, which belongs to nothing any more. */
export function useDeleteCustomIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; contactKey: string }) => {
      await deleteCustomIntegration(input.id);
      await removeIntegrationContact(input.contactKey).catch(() => undefined);
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: operationsKeys.customIntegrations }),
        queryClient.invalidateQueries({ queryKey: operationsKeys.contacts }),
      ]),
  });
}
