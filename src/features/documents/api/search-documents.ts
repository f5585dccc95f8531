import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { CompositeTypes, Database, Enums } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { documentKeys } from './query-keys.ts';
import { succeeded } from '../../../lib/errors.ts';

/** Rows per page of the documents list. */
export const PAGE_SIZE = 50;

/** The columns the list sorts by on the server (`search_documents`' `sort_by`). */
export const SORT_COLUMNS = [
  'relevance',
  'name',
  'category',
  'upload_date',
  'expiry_date',
  'size',
  'status',
] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];

/** Expiry states of the filter (overdue: before today; soon: within 30 days). */
export const EXPIRY_FILTERS = ['overdue', 'soon', 'later', 'none'] as const;
export type ExpiryFilter = (typeof EXPIRY_FILTERS)[number];

/** Where reading a document's text stands ("Indexing…" while pending). */
export type DocumentTextState = Enums<'document_texts_state'>;

/** What the documents list shows: the search box, the filters, the order and the page. */
export interface DocumentQuery {
  search: string;
  category: string | null;
  /** One tag, any case. */
  tag: string | null;
  expiry: ExpiryFilter | null;
  /** The id of the member who uploaded the documents. */
  uploader: string | null;
  sort: SortColumn | null;
  /** Null: the column's natural direction (newest, largest and best match first). */
  descending: boolean | null;
  /** From 0. */
  page: number;
}

/** A listed document, with where its text stands and where the search words were found. */
export interface SearchedDocument extends DocumentRecord {
  uploader_name: string | null;
  /** The responsible member's name (`responsible_id` is theirs). */
  responsible_name: string | null;
  text_state: DocumentTextState | null;
  text_reason: string | null;
  /** The words found in the description or text, each between `<mark>` and `</mark>`. */
  snippet: string | null;
}

export interface DocumentsPage {
  rows: SearchedDocument[];
  /** Documents matching the search and filters, on every page. */
  total: number;
  /** More documents match than `total`: the server stops counting a search's matches there. */
  totalCapped: boolean;
}

type SearchRow = CompositeTypes<'document_search_result'>;

function toDocument(row: SearchRow): SearchedDocument {
  return {
    id: row.id!,
    organization_id: row.organization_id!,
    name: row.name!,
    // The result's columns are the documents' own, whose check constraints the generated
    // composite type does not carry.
    category: row.category as DocumentRecord['category'],
    expiry_date: row.expiry_date,
    size: row.size ?? 0,
    status: (row.status ?? 'Active') as DocumentRecord['status'],
    file_path: row.file_path!,
    tags: row.tags ?? [],
    description: row.description,
    created_at: row.created_at!,
    upload_date: row.upload_date!,
    uploader_name: row.uploader_name,
    responsible_id: row.responsible_id,
    responsible_name: row.responsible_name,
    renewal_in_progress: row.renewal_in_progress ?? false,
    renewal_note: row.renewal_note,
    text_state: row.text_state as DocumentTextState | null,
    text_reason: row.text_reason,
    snippet: row.snippet,
  };
}

/**
 * One page of the organisation's documents, searched, filtered and sorted by the database
 * (`search_documents`, docs/data-model.md), with the total that match.
 */
export async function searchDocuments(
  query: DocumentQuery,
  signal?: AbortSignal,
): Promise<DocumentsPage> {
  // An argument left out takes its default (null: not filtered).
  const args: Database['public']['Functions']['search_documents']['Args'] = {
    search: query.search.trim() || undefined,
    category_filter: query.category ?? undefined,
    tag_filter: query.tag ?? undefined,
    expiry_filter: query.expiry ?? undefined,
    uploaded_by_filter: query.uploader ?? undefined,

    sort_by: query.sort ?? undefined,
    sort_descending: query.descending ?? undefined,
    page_offset: query.page * PAGE_SIZE,
    page_size: PAGE_SIZE,
  };
  let call = supabase().rpc('search_documents', args);
  if (signal) call = call.abortSignal(signal);
  const { data } = await succeeded(call, 'Failed to load documents');
  const rows = (data ?? []) as SearchRow[];
  return {
    rows: rows.map(toDocument),
    total: rows[0]?.total_count ?? 0,
    totalCapped: rows[0]?.total_capped ?? false,
  };
}

export const documentSearchQueryOptions = (query: DocumentQuery) =>
  queryOptions({
    queryKey: documentKeys.search(query),
    queryFn: ({ signal }) => searchDocuments(query, signal),
    // The rows of the last page stay on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

/** The documents page's list: one page from the server at a time. */
export const useDocumentSearch = (query: DocumentQuery) =>
  useQuery(documentSearchQueryOptions(query));
