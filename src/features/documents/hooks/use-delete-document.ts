import { useCallback } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { useDeleteDocument } from '../api/delete-document.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';

/**
 * Delete with the spec's question (`Are you sure you want to delete "{name}"?`), answered with
 * Cancel (focused) or Delete; on failure `Failed to delete document: {message}` (spec §8).
 */
export function useConfirmedDelete(): (
  document: Pick<DocumentRecord, 'id' | 'name' | 'file_path'>,
) => Promise<void> {
  const { alert, confirm } = useFeedback();
  const { mutateAsync } = useDeleteDocument();
  return useCallback(
    async (document) => {
      const confirmed = await confirm(`Are you sure you want to delete "${document.name}"?`, {
        confirmLabel: 'Delete',
        destructive: true,
      });
      if (!confirmed) return;
      try {
        await mutateAsync(document);
      } catch (error) {
        await alert(`Failed to delete document: ${errorMessage(error)}`);
      }
    },
    [alert, confirm, mutateAsync],
  );
}
