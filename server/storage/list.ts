import type { Queryable } from '../db/database.ts';
import { storageErrors } from './errors.ts';
import { isoTimestamp } from './queries.ts';

const SORT_COLUMNS = ['name', 'updated_at', 'created_at', 'last_accessed_at'] as const;
type SortColumn = (typeof SORT_COLUMNS)[number];

/** A checked `POST /object/list/{bucket}` body. */
export interface ListOptions {
  /** A folder: empty, or ending in `/`. */
  prefix: string;
  search: string;
  limit: number;
  offset: number;
  sortColumn: SortColumn;
  ascending: boolean;
}

/** One entry of a listing; folders have `id`, timestamps and `metadata` null. */
export interface ListEntry {
  name: string;
  id: string | null;
  updated_at: string | null;
  created_at: string | null;
  last_accessed_at: string | null;
  metadata: Record<string, unknown> | null;
}

const invalid = (message: string) => storageErrors.invalidRequest(`body/${message}`);

function integer(value: unknown, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalid(`${name} must be an integer >= ${min}`);
  }
  return value;
}

/** Checks a list request body as the storage server's schema does. */
export function parseListBody(body: Record<string, unknown>): ListOptions {
  const { prefix, search, limit, offset, sortBy } = body;
  if (typeof prefix !== 'string')
    throw storageErrors.invalidRequest("body must have required property 'prefix'");
  if (search !== undefined && typeof search !== 'string') throw invalid('search must be string');
  let sortColumn: SortColumn = 'name';
  let ascending = true;
  if (sortBy !== undefined) {
    if (typeof sortBy !== 'object' || sortBy === null) throw invalid('sortBy must be object');
    const { column, order } = sortBy as { column?: unknown; order?: unknown };
    if (!SORT_COLUMNS.includes(column as SortColumn)) {
      throw invalid(`sortBy/column must be equal to one of the allowed values`);
    }
    sortColumn = column as SortColumn;
    if (order !== undefined) {
      if (order !== 'asc' && order !== 'desc')
        throw invalid('sortBy/order must be equal to one of the allowed values');
      ascending = order === 'asc';
    }
  }
  return {
    prefix: prefix.length > 0 && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    search: search ?? '',
    // The storage server caps a page at 1500 entries.
    limit: Math.min(integer(limit, 'limit', 100, 1), 1500),
    offset: integer(offset, 'offset', 0, 0),
    sortColumn,
    ascending,
  };
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The entries directly inside `options.prefix`: the objects there and one entry per subfolder,
 * names relative to the prefix. `search` filters names by a case-insensitive prefix. Run as the
 * caller: only rows the caller may SELECT are listed, and folders only from those rows.
 */
export async function listObjects(
  tx: Queryable,
  bucketId: string,
  options: ListOptions,
): Promise<ListEntry[]> {
  const direction = options.ascending ? 'asc' : 'desc';
  const byName = `lower(name) collate "C" ${direction}, name collate "C" ${direction}`;
  const order =
    options.sortColumn === 'name'
      ? byName
      : // Folders first, as the storage server lists them for the other columns.
        `is_folder desc, ${options.sortColumn} ${direction} nulls last, ${byName}`;
  const { rows } = await tx.query<ListEntry>(
    `with matched as (
       select substr(name, length($2::text) + 1) as rest, id, updated_at, created_at, last_accessed_at, metadata
         from storage.objects
        where bucket_id = $1 and name like $3 escape '\\' and substr(name, length($2::text) + 1) ilike $4 escape '\\'
     ), entries as (
       select split_part(rest, '/', 1) as name, null::uuid as id, null::timestamptz as updated_at,
              null::timestamptz as created_at, null::timestamptz as last_accessed_at,
              null::jsonb as metadata, true as is_folder
         from matched where strpos(rest, '/') > 0
        group by split_part(rest, '/', 1)
       union all
       select rest, id, updated_at, created_at, last_accessed_at, metadata, false
         from matched where strpos(rest, '/') = 0
     )
     select name, id, ${isoTimestamp('updated_at')} as updated_at,
            ${isoTimestamp('created_at')} as created_at,
            ${isoTimestamp('last_accessed_at')} as last_accessed_at, metadata
       from entries
      order by ${order}
      limit $5 offset $6`,
    [
      bucketId,
      options.prefix,
      `${escapeLike(options.prefix)}%`,
      `${escapeLike(options.search)}%`,
      options.limit,
      options.offset,
    ],
  );
  return rows;
}
