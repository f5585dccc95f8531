import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { documentCategoryKeys } from '../../../lib/document-categories.ts';
import type { Json } from '../../../lib/database.types.ts';
import { succeeded } from '../../../lib/errors.ts';
import type { Role } from '../../../lib/roles.ts';
import { supabase } from '../../../lib/supabase.ts';
import { accessKeys } from './query-keys.ts';

export type Access = 'view' | 'edit';

/** One rule of a restricted category: a group or a role, and what it may do. */
export type AccessRule =
  | { groupId: string; role?: undefined; access: Access }
  | { role: Role; groupId?: undefined; access: Access };

/** The organisation's rules, by category id. */
export async function listCategoryAccess(): Promise<Map<string, AccessRule[]>> {
  const { data } = await succeeded(
    supabase().from('category_access').select('category_id, group_id, role, access'),
    'Failed to load who may see the categories',
  );
  const rules = new Map<string, AccessRule[]>();
  for (const row of data ?? []) {
    const access = row.access;
    const rule: AccessRule | null = row.group_id
      ? { groupId: row.group_id, access }
      : row.role
        ? { role: row.role, access }
        : null;
    if (!rule) continue;
    rules.set(row.category_id, [...(rules.get(row.category_id) ?? []), rule]);
  }
  return rules;
}

export const categoryAccessQueryOptions = () =>
  queryOptions({ queryKey: accessKeys.list(), queryFn: listCategoryAccess });

export const useCategoryAccess = () => useQuery(categoryAccessQueryOptions());

export interface AccessChange {
  categoryId: string;
  restricted: boolean;
  rules: readonly AccessRule[];
}

/** Replaces a category's rules at once (master admins only; the database says so otherwise). */
export async function setCategoryAccess({
  categoryId,
  restricted,
  rules,
}: AccessChange): Promise<void> {
  const body: Json = rules.map((rule) =>
    rule.groupId
      ? { group_id: rule.groupId, access: rule.access }
      : { role: rule.role, access: rule.access },
  );
  await succeeded(
    supabase().rpc('set_category_access', {
      category_id: categoryId,
      restricted,
      rules: body,
    }),
  );
}

export function useSetCategoryAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCategoryAccess,
    meta: { errorMessage: 'Failed to save who may see the category' },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: accessKeys.all }),
        queryClient.invalidateQueries({ queryKey: documentCategoryKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['documents'] }),
      ]),
  });
}
