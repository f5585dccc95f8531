import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENT_COLUMNS, type DocumentRecord } from './document.ts';

export interface DocumentsPage {
  rows: DocumentRecord[];
  /** Total number of the organisation's documents; only when `withCount` was asked for. */
  total: number | null;
}

export interface ListDocumentsOptions {
  /** Zero-based index of the first row. */
  from: number;
  /** Index of the last row, inclusive. */
  to: number;
  /** Ask the server for the total as well (`count: 'exact'`). */
  withCount?: boolean;
  signal?: AbortSignal;
}

/**
 * One slice of the organisation's documents, newest first (spec §7: "ordered by created_at
 * descending"). `id` breaks ties, so rows inserted in one statement keep a stable order across
 * slices. Row-level security limits the rows to the caller's organisation.
 */
export async function listDocuments({
  from,
  to,
  withCount = false,
  signal,
}: ListDocumentsOptions): Promise<DocumentsPage> {
  let query = supabase()
    .from('documents')
    .select(DOCUMENT_COLUMNS, withCount ? { count: 'exact' } : undefined)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, to);
  if (signal) query = query.abortSignal(signal);
  const { data, error, count } = await query;
  if (error) throw new Error(error.message || 'Failed to load documents');
  return {
    rows: data ?? [],
    total: withCount ? (count ?? 0) : null,
  };
}

/** One document as it is now. */
export async function fetchDocument(id: string): Promise<DocumentRecord> {
  const { data, error } = await supabase()
    .from('documents')
    .select(DOCUMENT_COLUMNS)
    .eq('id', id)
    .single();
  if (error) throw new Error(error.message || 'Failed to load document');
  return data;
}
