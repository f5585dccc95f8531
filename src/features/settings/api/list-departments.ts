import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tables } from '../../../lib/database.types.ts';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { settingsKeys } from './query-keys.ts';

export type Department = Pick<
  Tables<'departments'>,
  'id' | 'key' | 'name' | 'description' | 'position' | 'hidden' | 'categories' | 'tags'
>;

export const DEPARTMENT_COLUMNS = 'id, key, name, description, position, hidden, categories, tags';

/** The organisation's departments, hidden ones included, in their order. */
export async function listDepartments(): Promise<Department[]> {
  const { data } = await succeeded(
    supabase().from('departments').select(DEPARTMENT_COLUMNS).order('position').order('name'),
    'Failed to load the departments',
  );
  return data;
}

export const departmentsQueryOptions = (organizationId: string) =>
  queryOptions({ queryKey: settingsKeys.departments(organizationId), queryFn: listDepartments });

export const useDepartments = (organizationId: string) =>
  useQuery(departmentsQueryOptions(organizationId));
