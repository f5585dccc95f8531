import { useCallback, useEffect, useRef, useState } from 'react';
import type { DocumentRecord } from '../api/document.ts';
import { listDocuments } from '../api/list-documents.ts';

/** Rows of the first request: enough to fill the screen at once, small enough to be quick. */
export const FIRST_SLICE = 100;
/** Rows per request while the rest of the list loads in the background. */
export const NEXT_SLICE = 1000;

export interface DocumentListState {
  status: 'loading' | 'ready' | 'error';
  rows: DocumentRecord[];
  /** The organisation's document count, from the first response. */
  total: number;
  /** True while slices after the first are still arriving. */
  loadingMore: boolean;
  error: string | null;
}

const initial: DocumentListState = {
  status: 'loading',
  rows: [],
  total: 0,
  loadingMore: false,
  error: null,
};

/**
 * The organisation's documents, newest first, for the documents table.
 *
 * The first 100 rows arrive in one small request so the table shows at once; the rest follow
 * in slices of 1,000 while the user already works. Holding the whole list in memory (about
 * 3 MB for 10,000 documents) makes search and the category filter instant, with no request per
 * keystroke; the table renders only the rows on screen. Local edits (a deleted or edited row)
 * are applied in place instead of reloading everything.
 */
export function useDocumentList() {
  const [state, setState] = useState<DocumentListState>(initial);
  const [generation, setGeneration] = useState(0);
  // Rows deleted since loading started: later slices start that many rows earlier.
  const removedWhileLoading = useRef(0);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    removedWhileLoading.current = 0;
    setState((previous) => ({
      ...previous,
      status: previous.rows.length ? 'ready' : 'loading',
      error: null,
    }));

    async function load() {
      const first = await listDocuments({ from: 0, to: FIRST_SLICE - 1, withCount: true, signal });
      const total = first.total ?? first.rows.length;
      let fetched = first.rows.length;
      const more = fetched < total && first.rows.length === FIRST_SLICE;
      setState({ status: 'ready', rows: first.rows, total, loadingMore: more, error: null });
      if (!more) return;
      while (!signal.aborted) {
        const from = fetched - removedWhileLoading.current;
        const next = await listDocuments({ from, to: from + NEXT_SLICE - 1, signal });
        fetched += next.rows.length;
        const done = next.rows.length < NEXT_SLICE;
        setState((previous) => {
          const seen = new Set(previous.rows.map((row) => row.id));
          const added = next.rows.filter((row) => !seen.has(row.id));
          return {
            ...previous,
            rows: added.length ? previous.rows.concat(added) : previous.rows,
            loadingMore: !done,
          };
        });
        if (done) return;
      }
    }

    load().catch((error: unknown) => {
      if (signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      setState((previous) =>
        previous.rows.length
          ? // Keep what arrived; the list is just not complete.
            { ...previous, loadingMore: false, error: message }
          : { ...initial, status: 'error', error: message },
      );
    });
    return () => controller.abort();
  }, [generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);

  const removeRow = useCallback((id: string) => {
    removedWhileLoading.current += 1;
    setState((previous) => ({
      ...previous,
      rows: previous.rows.filter((row) => row.id !== id),
      total: Math.max(0, previous.total - 1),
    }));
  }, []);

  const replaceRow = useCallback((next: DocumentRecord) => {
    setState((previous) => ({
      ...previous,
      rows: previous.rows.map((row) => (row.id === next.id ? next : row)),
    }));
  }, []);

  return { ...state, reload, removeRow, replaceRow };
}
