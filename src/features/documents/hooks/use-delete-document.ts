import { useCallback } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { deleteDocument } from '../api/delete-document.ts';
import { messageOf, type DocumentRecord } from '../api/document.ts';

/**
 * Delete with the spec's confirmation (`Are you sure you want to delete "{name}"?`); removes the
 * row and the stored file. Resolves true when the document was deleted.
 */
export function useDeleteDocument(): (
  document: Pick<DocumentRecord, 'id' | 'name' | 'file_path'>,
) => Promise<boolean> {
  const { alert, confirm } = useFeedback();
  return useCallback(
    async (document) => {
      if (!(await confirm(`Are you sure you want to delete "${document.name}"?`))) return false;
      try {
        await deleteDocument(document);
        return true;
      } catch (error) {
        await alert(`Failed to delete document: ${messageOf(error, 'Unknown error')}`);
        return false;
      }
    },
    [alert, confirm],
  );
}
