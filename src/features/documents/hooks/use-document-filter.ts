import { useDeferredValue, useMemo } from 'react';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { classifyExpiry, utcDateString } from '../../../lib/expiry.ts';

/** The empty category filter: All Categories. */
export const ALL_CATEGORIES = '';

/** The expiry filter: every document, or those overdue or expiring soon (spec §4). */
export type ExpiryFilter = '' | 'overdue' | 'soon';
export const EXPIRY_FILTERS: readonly { value: ExpiryFilter; label: string }[] = [
  { value: '', label: 'Any expiry date' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'soon', label: 'Expiring soon' },
];
export const isExpiryFilter = (value: string | null): value is ExpiryFilter =>
  EXPIRY_FILTERS.some((filter) => filter.value === value);

/**
 * The rows whose name contains `search` (case-insensitive) and whose category is `category`.
 *
 * The filter runs on a deferred copy of the inputs: React answers the keystroke first (the
 * search box never lags), then filters. Lower-cased names are computed once per list, so a
 * keystroke costs one pass of `includes` over the names.
 */
export function useDocumentFilter(
  rows: DocumentRecord[],
  search: string,
  category: string,
  expiry: ExpiryFilter = '',
) {
  const deferredSearch = useDeferredValue(search);
  const deferredCategory = useDeferredValue(category);
  const names = useMemo(() => rows.map((row) => row.name.toLowerCase()), [rows]);

  const filtered = useMemo(() => {
    const needle = deferredSearch.trim().toLowerCase();
    if (!needle && deferredCategory === ALL_CATEGORIES && !expiry) return rows;
    const today = utcDateString();
    return rows.filter(
      (row, index) =>
        (deferredCategory === ALL_CATEGORIES || row.category === deferredCategory) &&
        (!expiry || classifyExpiry(row.expiry_date, today) === expiry) &&
        (!needle || names[index]!.includes(needle)),
    );
  }, [rows, names, deferredSearch, deferredCategory, expiry]);

  return {
    filtered,
    /** The search text `filtered` was computed for (lags `search` while React catches up). */
    appliedSearch: deferredSearch,
    appliedCategory: deferredCategory,
  };
}
