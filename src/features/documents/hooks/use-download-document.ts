import { useCallback } from 'react';
import { useFeedback } from '../../../components/feedback.tsx';
import { errorMessage } from '../../../lib/errors.ts';
import { downloadDocument, type DownloadableDocument } from '../api/download-document.ts';

/**
 * A download action for any list of documents: downloads under the document's name, and on
 * failure shows `Failed to download document: {message}` (spec §8). Resolves either way.
 */
export function useDownloadDocument(): (document: DownloadableDocument) => Promise<void> {
  const { alert } = useFeedback();
  return useCallback(
    async (document) => {
      try {
        await downloadDocument(document);
      } catch (error) {
        await alert(`Failed to download document: ${errorMessage(error)}`);
      }
    },
    [alert],
  );
}
