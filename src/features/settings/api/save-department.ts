import { useMutation, useQueryClient } from '@tanstack/react-query';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { DEPARTMENT_COLUMNS, type Department } from './list-departments.ts';
import { settingsKeys } from './query-keys.ts';

export type DepartmentChange = Pick<
  Department,
  'id' | 'name' | 'description' | 'hidden' | 'categories' | 'tags'
>;

/** Saves a department's name, description, visibility, categories and tags (admins). */
export async function saveDepartment(department: DepartmentChange): Promise<Department> {
  // Only these columns are the admins' to change (the key and the order are the server's).
  const { id, name, description, hidden, categories, tags } = department;
  const { data } = await succeeded(
    supabase()
      .from('departments')
      .update({ name, description, hidden, categories, tags })
      .eq('id', id)
      .select(DEPARTMENT_COLUMNS)
      .single(),
  );
  return data;
}

export function useSaveDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDepartment,
    meta: { errorMessage: 'Failed to save the department' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.allDepartments }),
  });
}
