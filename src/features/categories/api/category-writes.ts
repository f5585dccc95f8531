import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { documentCategoryKeys } from '../../../lib/document-categories.ts';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';

/**
 * The category list changed: every picker, filter and lock reads it again, and so do the
 * documents (a rename reaches them through the database's cascade).
 */
async function categoriesChanged(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: documentCategoryKeys.all }),
    queryClient.invalidateQueries({ queryKey: ['documents'] }),
  ]);
}

export async function createCategory(name: string): Promise<string> {
  const { data } = await succeeded(supabase().rpc('create_document_category', { name }));
  return data;
}

export async function renameCategory({ id, name }: { id: string; name: string }): Promise<void> {
  await succeeded(supabase().rpc('rename_document_category', { category_id: id, new_name: name }));
}

export async function setCategoryRetired({
  id,
  retired,
}: {
  id: string;
  retired: boolean;
}): Promise<void> {
  await succeeded(
    supabase().rpc(retired ? 'retire_document_category' : 'unretire_document_category', {
      category_id: id,
    }),
  );
}

export async function reorderCategories(ids: readonly string[]): Promise<void> {
  await succeeded(supabase().rpc('reorder_document_categories', { category_ids: [...ids] }));
}

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCategory,
    meta: { errorMessage: 'Failed to add the category' },
    onSuccess: () => categoriesChanged(queryClient),
  });
}

export function useRenameCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameCategory,
    meta: { errorMessage: 'Failed to rename the category' },
    onSuccess: () => categoriesChanged(queryClient),
  });
}

export function useSetCategoryRetired() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCategoryRetired,
    meta: { errorMessage: 'Failed to change the category' },
    onSuccess: () => categoriesChanged(queryClient),
  });
}

export function useReorderCategories() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderCategories,
    meta: { errorMessage: 'Failed to reorder the categories' },
    onSuccess: () => categoriesChanged(queryClient),
  });
}
