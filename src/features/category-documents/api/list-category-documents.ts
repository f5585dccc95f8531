import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENT_COLUMNS, type DocumentRecord } from '../../../lib/documents.ts';
import { documentMatchFilter, type DocumentMatch } from '../lib/document-match.ts';
import { categoryDocumentKeys } from './query-keys.ts';

/**
 * The organisation's documents that belong on a category or department page, newest first.
 * The filter runs on the server; row-level security limits it to the caller's organisation.
 */
export async function listCategoryDocuments(match: DocumentMatch): Promise<DocumentRecord[]> {
  const filter = documentMatchFilter(match);
  if (!filter) return [];
  const { data, error } = await supabase()
    .from('documents')
    .select(DOCUMENT_COLUMNS)
    .or(filter)
    .order('created_at', { ascending: false });
  if (error) throw new Error(error.message);
  return data ?? [];
}

export const categoryDocumentsQueryOptions = (match: DocumentMatch) =>
  queryOptions({
    queryKey: categoryDocumentKeys.matching(match),
    queryFn: () => listCategoryDocuments(match),
  });

/** The documents of a page; `enabled` false (no organisation) loads nothing. */
export function useCategoryDocumentList(match: DocumentMatch, { enabled = true } = {}) {
  return useQuery({ ...categoryDocumentsQueryOptions(match), enabled });
}

/**
 * How many documents belong on a page: the length of the very list the page shows (one
 * request, one rule), for its Related Documents or Documents card.
 */
export function useCategoryDocumentCount(match: DocumentMatch, { enabled = true } = {}) {
  return useQuery({
    ...categoryDocumentsQueryOptions(match),
    enabled,
    select: (documents) => documents.length,
  });
}
