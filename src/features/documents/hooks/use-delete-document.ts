import { useCallback } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { useDeleteDocument } from '../api/delete-document.ts';

/**
 * Delete with the spec's question (`Are you sure you want to delete "{name}"?`), answered with
 * Cancel (focused) or Delete; a failure is `Failed to delete document: {message}` (spec §8),
 * shown by the one handler of failures.
 */
export function useConfirmedDelete(): (
  document: Pick<DocumentRecord, 'id' | 'name' | 'file_path'>,
) => Promise<void> {
  const { confirm } = useFeedback();
  const { mutate } = useDeleteDocument();
  return useCallback(
    async (document) => {
      const confirmed = await confirm(`Are you sure you want to delete "${document.name}"?`, {
        confirmLabel: 'Delete',
        destructive: true,
      });
      if (confirmed) mutate(document);
    },
    [confirm, mutate],
  );
}
