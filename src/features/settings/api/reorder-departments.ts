import { useMutation, useQueryClient } from '@tanstack/react-query';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { settingsKeys } from './query-keys.ts';

/** Puts the departments in this order (every one of the organisation's, once). */
export async function reorderDepartments(ids: string[]): Promise<void> {
  await succeeded(supabase().rpc('reorder_departments', { department_ids: ids }));
}

export function useReorderDepartments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderDepartments,
    meta: { errorMessage: 'Failed to reorder the departments' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.allDepartments }),
  });
}
