import { queryOptions, useQuery } from '@tanstack/react-query';
import { ACTIVITY_COLUMNS, type ActivityEntry } from '../../../lib/activity.ts';
import { supabase } from '../../../lib/supabase.ts';
import { succeeded } from '../../../lib/errors.ts';

/** The most entries a document's History shows (newest first). */
export const DOCUMENT_HISTORY_LIMIT = 200;

/** A document's history, newest first (row-level security: members read document entries). */
export async function listDocumentHistory(documentId: string): Promise<ActivityEntry[]> {
  const { data } = await succeeded(
    supabase()
      .from('activity_log')
      .select(ACTIVITY_COLUMNS)
      .eq('document_id', documentId)
      .order('occurred_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(DOCUMENT_HISTORY_LIMIT),
    'Failed to load the history',
  );
  return data;
}

export const documentHistoryQueryOptions = (documentId: string) =>
  queryOptions({
    // Starts with 'documents': every change to documents refreshes it.
    queryKey: ['documents', 'history', documentId] as const,
    queryFn: () => listDocumentHistory(documentId),
  });

export const useDocumentHistory = (documentId: string) =>
  useQuery(documentHistoryQueryOptions(documentId));
