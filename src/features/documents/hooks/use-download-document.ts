import { useMutation } from '@tanstack/react-query';
import { downloadDocument, type DownloadableDocument } from '../api/download-document.ts';

/**
 * A download action for any list of documents: downloads under the document's name; a failure
 * is `Failed to download document: {message}` (spec §8), shown by the one handler of failures.
 */
export function useDownloadDocument(): (document: DownloadableDocument) => void {
  return useMutation({
    mutationFn: downloadDocument,
    meta: { errorMessage: 'Failed to download document' },
  }).mutate;
}
