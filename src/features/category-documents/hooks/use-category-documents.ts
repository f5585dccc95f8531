import { useCallback, useMemo, useState } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { useCategoryDocumentList } from '../api/list-category-documents.ts';
import type { DocumentMatch } from '../lib/document-match.ts';
import { searchDocuments } from '../lib/search-documents.ts';

/**
 * The documents of a category or department page, the search over them (name, description or
 * tag) and the selection for Email Selected.
 */
export function useCategoryDocuments(match: DocumentMatch) {
  const list = useCategoryDocumentList(match);
  const [query, setQuery] = useState('');
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(new Set());

  const documents = useMemo(() => list.data ?? [], [list.data]);
  const visible = useMemo(() => searchDocuments(documents, query), [documents, query]);
  // Selected documents still in the list (a reload may have removed some).
  const selected = useMemo(
    () => documents.filter((document) => selectedIds.has(document.id)),
    [documents, selectedIds],
  );
  const allVisibleSelected =
    visible.length > 0 && visible.every((document) => selectedIds.has(document.id));

  const toggle = useCallback((document: DocumentRecord) => {
    setSelectedIds((previous) => {
      const next = new Set(previous);
      if (next.has(document.id)) next.delete(document.id);
      else next.add(document.id);
      return next;
    });
  }, []);

  /** Selects every document the search shows, or clears them when all are selected. */
  const toggleAll = useCallback(() => {
    setSelectedIds((previous) => {
      const next = new Set(previous);
      const everySelected = visible.every((document) => next.has(document.id));
      for (const document of visible) {
        if (everySelected) next.delete(document.id);
        else next.add(document.id);
      }
      return next;
    });
  }, [visible]);

  const clearSelection = useCallback(() => setSelectedIds(new Set()), []);

  return {
    documents,
    visible,
    error: list.isError ? errorMessage(list.error) : null,
    loading: list.isPending,
    query,
    setQuery,
    selectedIds,
    selected,
    allVisibleSelected,
    toggle,
    toggleAll,
    clearSelection,
  };
}
