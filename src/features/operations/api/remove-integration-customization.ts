import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { operationsKeys } from './query-keys.ts';

/** Restores a built-in integration's original details by removing the organisation's edit. */
export async function removeIntegrationCustomization(integrationKey: string): Promise<void> {
  const { error } = await supabase()
    .from('integration_customizations')
    .delete()
    .eq('integration_key', integrationKey);
  if (error) throw new Error(error.message);
}

export function useRemoveIntegrationCustomization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeIntegrationCustomization,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationsKeys.customizations }),
  });
}
