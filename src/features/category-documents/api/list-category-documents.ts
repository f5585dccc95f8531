import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CompositeTypes } from '../../../lib/database.types.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { supabase } from '../../../lib/supabase.ts';
import type { DocumentMatch } from '../lib/document-match.ts';
import { categoryDocumentKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Rows per page of a category page's list. */
export const CATEGORY_PAGE_SIZE = 50;

export interface CategoryDocumentsPage {
  rows: DocumentRecord[];
  /** Documents of the page that match the search, on every page. */
  total: number;
  /** More documents match than `total`: the server stops counting a search's matches there. */
  totalCapped: boolean;
}

type SearchRow = CompositeTypes<'document_search_result'>;

const toDocument = (row: SearchRow): DocumentRecord => ({
  id: row.id!,
  organization_id: row.organization_id!,
  name: row.name!,
  // The result's columns are the documents' own, whose check constraints the generated
  // composite type does not carry.
  category: row.category as DocumentRecord['category'],
  expiry_date: row.expiry_date,
  size: row.size ?? 0,
  status: (row.status ?? 'Active') as DocumentRecord['status'],
  file_path: row.file_path!,
  tags: row.tags ?? [],
  description: row.description,
  created_at: row.created_at!,
  upload_date: row.upload_date!,
  responsible_id: row.responsible_id,
  renewal_in_progress: row.renewal_in_progress ?? false,
  renewal_note: row.renewal_note,
});

/**
 * One page of the organisation's documents that belong on a category or department page (its
 * category, or any of its tag spellings), newest first or best match first, searched by the
 * database in names, tags, descriptions and the text inside files (`search_documents`).
 */
export async function listCategoryDocuments(
  match: DocumentMatch,
  search: string,
  page: number,
  pageSize = CATEGORY_PAGE_SIZE,
): Promise<CategoryDocumentsPage> {
  const categories = match.categories ?? [];
  if (!match.documentCategory && match.tags.length === 0 && categories.length === 0) {
    return { rows: [], total: 0, totalCapped: false };
  }
  const { data } = await succeeded(
    supabase().rpc('search_documents', {
      search: search.trim() || undefined,
      section_category: match.documentCategory ?? undefined,
      section_tags: [...match.tags],
      ...(categories.length > 0 ? { section_categories: [...categories] } : {}),
      page_offset: page * pageSize,
      page_size: pageSize,
    }),
  );
  const rows = (data ?? []) as SearchRow[];
  return {
    rows: rows.map(toDocument),
    total: rows[0]?.total_count ?? 0,
    totalCapped: rows[0]?.total_capped ?? false,
  };
}

export const categoryDocumentsQueryOptions = (match: DocumentMatch, search: string, page: number) =>
  queryOptions({
    queryKey: categoryDocumentKeys.matching(match, search, page),
    queryFn: () => listCategoryDocuments(match, search, page),
    placeholderData: keepPreviousData,
  });

/** One page of a category page's documents; `enabled` false (no organisation) loads nothing. */
export function useCategoryDocumentList(
  match: DocumentMatch,
  search: string,
  page: number,
  { enabled = true } = {},
) {
  return useQuery({ ...categoryDocumentsQueryOptions(match, search, page), enabled });
}

/**
 * How many documents belong on a page, for its Related Documents or Documents card: the total
 * of the very request the list makes for its first page (one request, one rule).
 */
export function useCategoryDocumentCount(match: DocumentMatch, { enabled = true } = {}) {
  return useQuery({
    ...categoryDocumentsQueryOptions(match, '', 0),
    enabled,
    select: (page) => page.total,
  });
}
