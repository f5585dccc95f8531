import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { errorMessage } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import { DOCUMENT_COLUMNS, type DocumentRecord } from '../../../lib/documents.ts';
import { documentKeys } from './query-keys.ts';

export interface DocumentsPage {
  rows: DocumentRecord[];
  /** Total number of the organisation's documents; only when `withCount` was asked for. */
  total: number | null;
}

export interface ListDocumentsOptions {
  /** Zero-based index of the first row. */
  from: number;
  /** Index of the last row, inclusive. */
  to: number;
  /** Ask the server for the total as well (`count: 'exact'`). */
  withCount?: boolean;
  signal?: AbortSignal;
}

/**
 * One slice of the organisation's documents, newest first (spec §7: "ordered by created_at
 * descending"). `id` breaks ties, so rows inserted in one statement keep a stable order across
 * slices. Row-level security limits the rows to the caller's organisation.
 */
export async function listDocuments({
  from,
  to,
  withCount = false,
  signal,
}: ListDocumentsOptions): Promise<DocumentsPage> {
  let query = supabase()
    .from('documents')
    .select(DOCUMENT_COLUMNS, withCount ? { count: 'exact' } : undefined)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .range(from, to);
  if (signal) query = query.abortSignal(signal);
  const { data, error, count } = await query;
  if (error) throw new Error(error.message || 'Failed to load documents');
  return {
    rows: data ?? [],
    total: withCount ? (count ?? 0) : null,
  };
}

/** One document as it is now. */
export async function fetchDocument(id: string): Promise<DocumentRecord> {
  const { data, error } = await supabase()
    .from('documents')
    .select(DOCUMENT_COLUMNS)
    .eq('id', id)
    .single();
  if (error) throw new Error(error.message || 'Failed to load document');
  return data;
}

/** Rows of the first request: enough to fill the screen at once, small enough to be quick. */
export const FIRST_SLICE = 100;
/** Rows per request while the rest of the list loads in the background. */
export const NEXT_SLICE = 1000;

/** One slice of the list, and whether more follow. */
export interface DocumentsSlice extends DocumentsPage {
  more: boolean;
}

export type DocumentListData = InfiniteData<DocumentsSlice, number>;

/**
 * The organisation's documents, newest first, for the documents table: the first 100 rows in
 * one small request (with the total), so the table shows at once, then slices of 1,000. Each
 * slice starts where the rows held so far end, so a row deleted meanwhile (removed from the
 * cache, see document-cache.ts) moves the next slice up by one, as it moved on the server.
 */
export const documentListQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: documentKeys.list(),
    initialPageParam: 0,
    queryFn: async ({ pageParam, signal }): Promise<DocumentsSlice> => {
      const first = pageParam === 0;
      const size = first ? FIRST_SLICE : NEXT_SLICE;
      const page = await listDocuments({
        from: pageParam,
        to: pageParam + size - 1,
        withCount: first,
        signal,
      });
      const full = page.rows.length === size;
      return { ...page, more: full && (page.total === null || size < page.total) };
    },
    getNextPageParam: (last, pages) =>
      last.more ? pages.reduce((count, page) => count + page.rows.length, 0) : undefined,
    // Thousands of rows are not reloaded whenever the tab regains focus; the app's own writes
    // keep the list current, and opening the page again reloads it once it is stale.
    refetchOnWindowFocus: false,
  });

export interface DocumentList {
  status: 'loading' | 'ready' | 'error';
  rows: DocumentRecord[];
  /** The organisation's document count, from the first response. */
  total: number;
  /** True while slices after the first are still arriving. */
  loadingMore: boolean;
  error: string | null;
  reload: () => void;
}

/**
 * The documents of the documents page. Holding the whole list in memory (about 3 MB for 10,000
 * documents) makes search and the category filter instant, with no request per keystroke; the
 * table renders only the rows on screen. The slices after the first follow on their own.
 */
export function useDocumentList(): DocumentList {
  const query = useInfiniteQuery(documentListQueryOptions());
  const { data, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, refetch } =
    query;

  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);

  const rows = useMemo(() => {
    // A row inserted meanwhile can push one already held into the next slice: keep it once.
    const seen = new Set<string>();
    const all: DocumentRecord[] = [];
    for (const page of data?.pages ?? []) {
      for (const row of page.rows) {
        if (!seen.has(row.id)) {
          seen.add(row.id);
          all.push(row);
        }
      }
    }
    return all;
  }, [data]);

  return {
    status: query.isPending ? 'loading' : data ? 'ready' : 'error',
    rows,
    total: data?.pages[0]?.total ?? rows.length,
    loadingMore: Boolean(hasNextPage) && !isFetchNextPageError,
    error: query.error ? errorMessage(query.error) : null,
    // After a failed slice, carry on from there; otherwise load everything again.
    reload: () => void (isFetchNextPageError ? fetchNextPage() : refetch()),
  };
}
