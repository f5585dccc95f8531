import type { QueryClient } from '@tanstack/react-query';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { documentKeys } from './query-keys.ts';
import type { DocumentsPage } from './search-documents.ts';

/**
 * After a change to documents every read of the table is loaded again: the list is one page
 * from the server (what matches, and in which order, may have changed), the dashboard's
 * counters, the category pages' lists.
 */
export function documentsChanged(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: documentKeys.all });
}

/** After a document was deleted. */
export const documentRemoved = (queryClient: QueryClient) => documentsChanged(queryClient);

/**
 * After a document was saved (its properties or its content), with the saved row: the listed
 * row shows it at once, while the pages load again.
 */
export function documentSaved(queryClient: QueryClient, saved: DocumentRecord) {
  queryClient.setQueriesData<DocumentsPage>(
    { queryKey: documentKeys.searches() },
    (page) =>
      page && {
        ...page,
        rows: page.rows.map((row) => (row.id === saved.id ? { ...row, ...saved } : row)),
      },
  );
  return documentsChanged(queryClient);
}

/** After new documents were added. */
export const documentsAdded = (queryClient: QueryClient) => documentsChanged(queryClient);
