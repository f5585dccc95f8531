import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENT_COLUMNS, type DocumentRecord } from '../../documents/api/document.ts';
import { documentMatchFilter, type DocumentMatch } from '../lib/document-match.ts';

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
