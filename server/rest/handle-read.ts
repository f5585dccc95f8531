import { isCacheableRead } from './cacheable-read.ts';
import { RestError } from './errors.ts';
import type { Prepared, RestRequest } from './handler-types.ts';
import { PROFILE_HEADER } from './handler-types.ts';
import { findTable, planRead } from './plan-read.ts';
import { appliedPreferences } from './preferences.ts';
import type { ResultRow } from './respond.ts';
import { assertSingle, rangeStatus, reply, totalOf } from './respond.ts';
import type { ReadNode } from './plan-types.ts';
import type { SchemaCache } from './schema-types.ts';
import { readStatement } from './sql-read.ts';
import { Params, qualified } from './sql-util.ts';

/**
 * The response to a read (of a table or of a function's result): 200, 206 when a count shows
 * more rows than returned, 416 past the end; `.single()` needs exactly one row.
 */
export function readResponse(
  req: Pick<RestRequest, 'media' | 'prefs' | 'profileNegotiated'>,
  row: ResultRow,
  offset: number,
  head: boolean,
  applied: Parameters<typeof appliedPreferences>[1] = ['count', 'handling'],
): Response {
  if (req.media.kind === 'single') assertSingle(row.page);
  const total = totalOf(row);
  const { status, range } = rangeStatus(offset, row.page, total);
  const headers = {
    'Content-Type': req.media.contentType,
    'Content-Range': range,
    'Preference-Applied': appliedPreferences(req.prefs, applied),
    [PROFILE_HEADER]: req.profileNegotiated ? 'public' : null,
  };
  if (status === 416) {
    const error = new RestError(416, 'PGRST103', 'Requested range not satisfiable', {
      details: `An offset of ${offset} was requested, but there are only ${total} rows.`,
    });
    return reply(416, head ? null : JSON.stringify(error.body()), {
      ...headers,
      'Content-Type': 'application/json; charset=utf-8',
    });
  }
  return reply(status, head ? null : row.body, headers);
}

/** A table read's statement, before it is tied to a request's response (`prepareRead`). */
export interface PlannedRead {
  sql: string;
  params: unknown[];
  /** The plan's root, for `isCacheableRead`. */
  root: ReadNode;
  /** The first row's position, for `Content-Range`. */
  offset: number;
  head: boolean;
}

/** Plans the one SELECT of a GET/HEAD of a table or view (the JSON and the count built in Postgres). */
export function planReadStatement(cache: SchemaCache, req: RestRequest): PlannedRead {
  const table = findTable(cache, req.resource);
  const from = qualified(cache.schema, table.name);
  const root = planRead(cache, { name: table.name, table, from, qualifier: from }, req.query);
  const params = new Params(req.limits.maxFilteredTextBytes);
  const head = req.method === 'HEAD';
  const sql = readStatement(root, params, {
    media: req.media,
    ...(req.prefs.count ? { count: { kind: req.prefs.count } } : {}),
    head,
    bounds: req.limits,
  });
  return { sql, params: params.values, root, offset: root.range.offset ?? 0, head };
}

/** GET/HEAD of a table or view: one SELECT building the JSON (and the count) in Postgres. */
export function prepareRead(cache: SchemaCache, req: RestRequest): Prepared {
  const { sql, params, root, offset, head } = planReadStatement(cache, req);
  return {
    sql,
    params,
    readOnly: true,
    respond: (row) => readResponse(req, row, offset, head),
    cacheable: isCacheableRead(cache, root, params),
  };
}
