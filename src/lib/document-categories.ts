import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { succeeded } from './errors.ts';
import { isViewerRole } from './roles.ts';
import { useSession } from './session.tsx';
import { supabase } from './supabase.ts';

/**
 * One of the organisation's document categories as the signed-in member sees it
 * (`my_document_categories()`, docs/data-model.md): in the organisation's order, with whether
 * it is retired or restricted and what the member may do with its documents.
 */
export interface MemberCategory {
  id: string;
  name: string;
  position: number;
  retired: boolean;
  restricted: boolean;
  canView: boolean;
  canEdit: boolean;
}

/** What the app says when the member may not upload into, or move into, a category. */
export const NO_CATEGORY_ACCESS = 'You do not have access to this category';

/** The key of every query that reads the categories (their names, access and groups). */
export const documentCategoryKeys = {
  all: ['document_categories'] as const,
  mine: () => ['document_categories', 'mine'] as const,
};

export async function fetchMyDocumentCategories(signal?: AbortSignal): Promise<MemberCategory[]> {
  let call = supabase().rpc('my_document_categories');
  if (signal) call = call.abortSignal(signal);
  const { data } = await succeeded(call, 'Failed to load categories');
  return (data ?? []).map((row) => ({
    id: row.id,
    name: row.name,
    position: row.position,
    retired: row.retired,
    restricted: row.restricted,
    canView: row.can_view,
    canEdit: row.can_edit,
  }));
}

export const myDocumentCategoriesQueryOptions = () =>
  queryOptions({
    queryKey: documentCategoryKeys.mine(),
    queryFn: ({ signal }) => fetchMyDocumentCategories(signal),
  });

/** The signed-in member's categories, cached and shared by every picker, filter and lock. */
export function useDocumentCategories() {
  return useQuery(myDocumentCategoriesQueryOptions());
}

/** What an upload or a move may go into: categories in use the member may edit. */
export function pickerCategories(categories: readonly MemberCategory[]): MemberCategory[] {
  return categories.filter((category) => category.canEdit && !category.retired);
}

/** What a filter offers: every category whose documents the member may see. */
export function filterCategories(categories: readonly MemberCategory[]): MemberCategory[] {
  return categories.filter((category) => category.canView);
}

/**
 * The organisation's category that a page names (a category page's "HR", a department's
 * "Worship"), matched without regard to case, when the member may see its documents: the page
 * then lists them. A renamed, removed or hidden one leaves the page to its tags.
 */
export function visibleCategoryNamed(
  categories: readonly MemberCategory[] | undefined,
  name: string | null,
): string | null {
  if (!name) return null;
  const wanted = name.toLocaleLowerCase();
  const found = categories?.find((category) => category.name.toLocaleLowerCase() === wanted);
  return found?.canView ? found.name : null;
}

/** Whether the category of this name is restricted (an unknown name is not). */
export function isRestrictedCategory(
  categories: readonly MemberCategory[] | undefined,
  name: string,
): boolean {
  return categories?.some((category) => category.name === name && category.restricted) ?? false;
}

/**
 * What the signed-in member may do with documents, as far as the app offers it: a Viewer
 * changes nothing; others edit the documents of categories they may edit. A category the list
 * does not name (not loaded yet) is left to the server, which decides every change anyway.
 */
export function useDocumentAccess() {
  const { profile } = useSession();
  const categories = useDocumentCategories();
  const readOnly = isViewerRole(profile?.role);
  return useMemo(() => {
    const byName = new Map((categories.data ?? []).map((category) => [category.name, category]));
    return {
      /** A Viewer: no upload, edit, rename, renew, delete or restore anywhere. */
      readOnly,
      /** Whether the member may upload at all: not a Viewer, and some category takes it. */
      mayUpload:
        !readOnly &&
        (categories.data === undefined || pickerCategories(categories.data).length > 0),
      mayEdit: (categoryName: string) => !readOnly && (byName.get(categoryName)?.canEdit ?? true),
      isRestricted: (categoryName: string) => byName.get(categoryName)?.restricted ?? false,
    };
  }, [categories.data, readOnly]);
}
