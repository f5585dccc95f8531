import { useDeferredValue, useMemo } from 'react';
import type { DocumentRecord } from '../../../lib/documents.ts';

/** The empty category filter: All Categories. */
export const ALL_CATEGORIES = '';

/**
 * The rows whose name contains `search` (case-insensitive) and whose category is `category`.
 *
 * The filter runs on a deferred copy of the inputs: React answers the keystroke first (the
 * search box never lags), then filters. Lower-cased names are computed once per list, so a
 * keystroke costs one pass of `includes` over the names.
 */
export function useDocumentFilter(rows: DocumentRecord[], search: string, category: string) {
  const deferredSearch = useDeferredValue(search);
  const deferredCategory = useDeferredValue(category);
  const names = useMemo(() => rows.map((row) => row.name.toLowerCase()), [rows]);

  const filtered = useMemo(() => {
    const needle = deferredSearch.trim().toLowerCase();
    if (!needle && deferredCategory === ALL_CATEGORIES) return rows;
    return rows.filter(
      (row, index) =>
        (deferredCategory === ALL_CATEGORIES || row.category === deferredCategory) &&
        (!needle || names[index]!.includes(needle)),
    );
  }, [rows, names, deferredSearch, deferredCategory]);

  return {
    filtered,
    /** The search text `filtered` was computed for (lags `search` while React catches up). */
    appliedSearch: deferredSearch,
    appliedCategory: deferredCategory,
  };
}
