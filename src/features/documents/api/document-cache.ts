import type { QueryClient } from '@tanstack/react-query';
import type { DocumentRecord } from '../../../lib/documents.ts';
import type { DocumentListData } from './list-documents.ts';
import { documentKeys } from './query-keys.ts';

function updateList(
  queryClient: QueryClient,
  update: (rows: DocumentRecord[], index: number) => { rows: DocumentRecord[]; removed: number },
) {
  queryClient.setQueryData<DocumentListData>(documentKeys.list(), (data) => {
    if (!data) return data;
    let removed = 0;
    const pages = data.pages.map((page, index) => {
      const next = update(page.rows, index);
      removed += next.removed;
      return { ...page, rows: next.rows };
    });
    const [first, ...rest] = pages;
    if (!first) return data;
    const total = first.total === null ? null : Math.max(0, first.total - removed);
    return { ...data, pages: [{ ...first, total }, ...rest] };
  });
}

/**
 * Everything else read from the documents table (the dashboard's counters and lists, the
 * category pages' lists, a preview or text) is refreshed; the documents list itself is changed
 * in place by the callers below instead of reloading thousands of rows for one change.
 */
function invalidateOtherReads(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    queryKey: documentKeys.all,
    predicate: (query) => query.queryKey[1] !== documentKeys.list()[1],
  });
}

/** After a document was deleted. */
export function documentRemoved(queryClient: QueryClient, id: string) {
  updateList(queryClient, (rows) => {
    const kept = rows.filter((row) => row.id !== id);
    return { rows: kept, removed: rows.length - kept.length };
  });
  return invalidateOtherReads(queryClient);
}

/** After a document was saved (its properties or its content), with the saved row. */
export function documentSaved(queryClient: QueryClient, saved: DocumentRecord) {
  updateList(queryClient, (rows) => ({
    rows: rows.map((row) => (row.id === saved.id ? saved : row)),
    removed: 0,
  }));
  return invalidateOtherReads(queryClient);
}

/** After new documents were added: every read, the list included, is loaded again. */
export function documentsAdded(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: documentKeys.all });
}
