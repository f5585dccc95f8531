import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  EXPIRY_FILTERS,
  SORT_COLUMNS,
  type DocumentQuery,
  type ExpiryFilter,
  type SortColumn,
} from '../api/search-documents.ts';

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;

/** A category's name (1 to 100 characters); whether it is one of the list is the server's to say. */
const categoryName = (value: string | null): string | null => {
  const name = value?.trim() ?? '';
  return name && name.length <= 100 ? name : null;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The list's state as the address holds it:
 * `?q=…&category=…&tag=…&expiry=overdue&uploader={user id}&sort=name&dir=asc&page=2`.
 */
export function readDocumentQuery(params: URLSearchParams): DocumentQuery {
  const page = Number(params.get('page'));
  const dir = params.get('dir');
  return {
    search: params.get('q') ?? '',
    category: categoryName(params.get('category')),
    tag: params.get('tag')?.trim() || null,
    expiry: oneOf<ExpiryFilter>(EXPIRY_FILTERS, params.get('expiry')),
    uploader: UUID.test(params.get('uploader') ?? '') ? params.get('uploader') : null,
    sort: oneOf<SortColumn>(SORT_COLUMNS, params.get('sort')),
    descending: dir === 'desc' ? true : dir === 'asc' ? false : null,
    page: Number.isInteger(page) && page > 1 ? page - 1 : 0,
  };
}

function writeDocumentQuery(query: DocumentQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.search) params.set('q', query.search);
  if (query.category) params.set('category', query.category);
  if (query.tag) params.set('tag', query.tag);
  if (query.expiry) params.set('expiry', query.expiry);
  if (query.uploader) params.set('uploader', query.uploader);
  if (query.sort) params.set('sort', query.sort);
  if (query.descending !== null) params.set('dir', query.descending ? 'desc' : 'asc');
  if (query.page > 0) params.set('page', String(query.page + 1));
  return params;
}

/**
 * The documents list's search, filters, order and page, kept in the address so that reload,
 * Back and a shared link show the same list. A change of anything but the page starts again
 * at the first page. `replace` changes the current history entry (while typing in the search
 * box) instead of adding one.
 */
export function useDocumentQuery(): [
  DocumentQuery,
  (change: Partial<DocumentQuery>, options?: { replace?: boolean }) => void,
] {
  const [params, setParams] = useSearchParams();
  const query = useMemo(() => readDocumentQuery(params), [params]);
  const change = useCallback(
    (next: Partial<DocumentQuery>, options: { replace?: boolean } = {}) =>
      setParams(
        (current) => {
          const before = readDocumentQuery(current);
          const page = 'page' in next ? next.page! : 0;
          return writeDocumentQuery({ ...before, ...next, page });
        },
        { replace: options.replace ?? false },
      ),
    [setParams],
  );
  return [query, change];
}
