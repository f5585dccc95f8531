import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TablesInsert } from '../../../lib/database.types.ts';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { DEPARTMENT_COLUMNS, type Department } from './list-departments.ts';
import { settingsKeys } from './query-keys.ts';

/**
 * Adds a department, last in the order. The server makes its key (its address) from the name;
 * the generated type asks for one only because the column has no default.
 */
export async function addDepartment(input: {
  organizationId: string;
  name: string;
}): Promise<Department> {
  const row = { organization_id: input.organizationId, name: input.name.trim() };
  const { data } = await succeeded(
    supabase()
      .from('departments')
      .insert(row as TablesInsert<'departments'>)
      .select(DEPARTMENT_COLUMNS)
      .single(),
  );
  return data;
}

export function useAddDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addDepartment,
    meta: { errorMessage: 'Failed to add the department' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.allDepartments }),
  });
}
