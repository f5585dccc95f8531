import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { documentRemoved } from './document-cache.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { succeeded } from '../../../lib/errors.ts';

/**
 * Deletes a document: it moves to the organisation's trash with its file and its earlier
 * versions (`delete_documents`), where any member can restore it until it is deleted for ever.
 */
export async function deleteDocument(document: Pick<DocumentRecord, 'id'>): Promise<void> {
  await succeeded(
    supabase().rpc('delete_documents', { document_ids: [document.id] }),
    'Delete failed',
  );
}

/** Deleting a document; the list drops its row, and every other read of documents refreshes. */
export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorMessage: 'Failed to delete document' },
    mutationFn: deleteDocument,
    onSuccess: () => documentRemoved(queryClient),
  });
}
