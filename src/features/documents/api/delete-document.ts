import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase.ts';
import { documentRemoved } from './document-cache.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { removeDocumentFiles } from './store-file.ts';

/**
 * Deletes a document: its row (its earlier versions go with it), then its stored files, the
 * current one and those of its versions. The row goes first: if removing a file then fails,
 * what is left is an unreferenced file, never a listed document whose file is gone.
 */
export async function deleteDocument(
  document: Pick<DocumentRecord, 'id' | 'file_path'>,
): Promise<void> {
  const versions = await supabase()
    .from('document_versions')
    .select('file_path')
    .eq('document_id', document.id);
  if (versions.error) throw new Error(versions.error.message || 'Delete failed');
  const { data, error } = await supabase()
    .from('documents')
    .delete()
    .eq('id', document.id)
    .select('id');
  if (error) throw new Error(error.message || 'Delete failed');
  if (!data || data.length === 0) throw new Error('Delete failed');
  try {
    await removeDocumentFiles([
      document.file_path,
      ...versions.data.map((version) => version.file_path),
    ]);
  } catch (cause) {
    console.warn(`The file of deleted document ${document.id} could not be removed`, cause);
  }
}

/** Deleting a document; the list drops its row, and every other read of documents refreshes. */
export function useDeleteDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDocument,
    onSuccess: () => documentRemoved(queryClient),
  });
}
