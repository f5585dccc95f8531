import { useMutation, useQueryClient } from '@tanstack/react-query';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { settingsKeys } from './query-keys.ts';

/** Removes a department page; its documents stay where they are (admins). */
export async function removeDepartment(id: string): Promise<void> {
  await succeeded(supabase().from('departments').delete().eq('id', id));
}

export function useRemoveDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeDepartment,
    meta: { errorMessage: 'Failed to remove the department' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.allDepartments }),
  });
}
