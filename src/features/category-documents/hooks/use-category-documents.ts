import { useCallback, useEffect, useMemo, useState } from 'react';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { useCategoryDocumentList } from '../api/list-category-documents.ts';
import type { DocumentMatch } from '../lib/document-match.ts';

/** Waits this long after the last keystroke before searching. */
export const SEARCH_DELAY_MS = 300;

/**
 * The documents of a category or department page, one page at a time from the server, the
 * search over them (names, descriptions, tags and the text inside files; once typing pauses)
 * and the selection for Email Selected, which outlasts a search or another page.
 */
export function useCategoryDocuments(match: DocumentMatch) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [selection, setSelection] = useState<ReadonlyMap<string, DocumentRecord>>(new Map());
  const list = useCategoryDocumentList(match, search, page);

  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(query);
      setPage(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const visible = useMemo(() => list.data?.rows ?? [], [list.data]);
  const selected = useMemo(() => [...selection.values()], [selection]);
  const allVisibleSelected =
    visible.length > 0 && visible.every((document) => selection.has(document.id));

  const toggle = useCallback((document: DocumentRecord) => {
    setSelection((previous) => {
      const next = new Map(previous);
      if (next.has(document.id)) next.delete(document.id);
      else next.set(document.id, document);
      return next;
    });
  }, []);

  /** Selects every document the page shows, or clears them when all are selected. */
  const toggleAll = useCallback(() => {
    setSelection((previous) => {
      const next = new Map(previous);
      const everySelected = visible.every((document) => next.has(document.id));
      for (const document of visible) {
        if (everySelected) next.delete(document.id);
        else next.set(document.id, document);
      }
      return next;
    });
  }, [visible]);

  const clearSelection = useCallback(() => setSelection(new Map()), []);

  return {
    visible,
    /** Documents matching the search (all of the page's documents without one). */
    total: list.data?.total ?? 0,
    totalCapped: list.data?.totalCapped ?? false,
    /** Whether the page has no documents at all (not only none matching a search). */
    empty: search.trim() === '' && (list.data?.total ?? 0) === 0,
    error: list.isError ? errorMessage(list.error) : null,
    loading: list.isPending,
    query,
    setQuery,
    page,
    setPage,
    selectedIds: selection as ReadonlyMap<string, unknown>,
    selected,
    allVisibleSelected,
    toggle,
    toggleAll,
    clearSelection,
  };
}
