import type { Payload } from './body.ts';
import { RestError, SchemaMissError, columnNotFound, invalidBody } from './errors.ts';
import type { Prepared, RestRequest } from './handler-types.ts';
import { PROFILE_HEADER } from './handler-types.ts';
import { findTable, planRead, planRootFilters } from './plan-read.ts';
import { appliedPreferences } from './preferences.ts';
import type { ResultRow } from './respond.ts';
import { acceptedPages, assertMaxAffected, assertSingle, contentRange, reply } from './respond.ts';
import type { Column, SchemaCache, Table } from './schema-types.ts';
import type { BodySource } from './sql-body.ts';
import { bodySql, nodeSql, wrapStatement } from './sql-read.ts';
import { Params, ident } from './sql-util.ts';
import {
  INSERTED_SQL,
  MUTATION_CTE,
  deleteSql,
  insertSql,
  returningColumns,
  updateSql,
} from './sql-write.ts';

/** PGRST204: a body key (or `columns=` entry) that is not a column of the table. */
function bodyColumns(table: Table, names: string[]): Column[] {
  return names.map((name) => {
    const column = table.columns.get(name);
    if (!column) {
      throw new SchemaMissError(
        400,
        'PGRST204',
        `Could not find the '${name}' column of '${table.name}' in the schema cache`,
      );
    }
    return column;
  });
}

function bodySource(req: RestRequest, table: Table, payload: Payload): BodySource {
  const names = req.query.columns ?? payload.keys;
  return {
    json: payload.json,
    isArray: payload.isArray,
    columns: bodyColumns(table, [...new Set(names)]),
    applyDefaults: req.prefs.missing === 'default',
  };
}

/** `Location: /table?pk=eq.value` for `Prefer: return=headers-only` after a one-row insert. */
function location(table: Table, body: Uint8Array | null): string | null {
  if (!body || table.primaryKey.length === 0) return null;
  const rows = JSON.parse(Buffer.from(body).toString()) as Record<string, unknown>[];
  const row = rows[0];
  if (rows.length !== 1 || !row) return null;
  const filters = table.primaryKey.map((key) => {
    const value = row[key];
    const encoded = value === null || value === undefined ? 'is.null' : `eq.${String(value)}`;
    return `${encodeURIComponent(key)}=${encodeURIComponent(encoded)}`;
  });
  return `/${encodeURIComponent(table.name)}?${filters.join('&')}`;
}

/** Checks shared by every mutation's result; throwing here rolls the mutation back. */
/** The checks `checkAffected` makes of `req`'s answer (see `acceptedPages`). */
function affectedChecks(req: RestRequest): { single: boolean; limitsAffected: boolean } {
  return {
    single: req.media.kind === 'single',
    // PostgREST limits what PATCH and DELETE change; an insert is never refused for its size.
    limitsAffected: req.method === 'PATCH' || req.method === 'DELETE',
  };
}

function checkAffected(req: RestRequest, row: ResultRow): void {
  const checks = affectedChecks(req);
  if (checks.single) assertSingle(row.page);
  if (checks.limitsAffected) assertMaxAffected(req.prefs, row.page);
}

/**
 * POST (insert, upsert), PATCH (update) and DELETE of a table: one statement with the mutation
 * as a CTE and, for `Prefer: return=representation`, the `select=` read of the returned rows
 * (embeds included) built as JSON in the same statement.
 */
export function prepareWrite(cache: SchemaCache, req: RestRequest): Prepared {
  const table = findTable(cache, req.resource);
  const schema = cache.schema;
  const representation = req.prefs.return === 'representation';
  const headersOnly = req.method === 'POST' && req.prefs.return === 'headers-only';
  const mutationQualifier = ident(MUTATION_CTE);
  const root = planRead(
    cache,
    { name: table.name, table, from: mutationQualifier, qualifier: mutationQualifier },
    req.query,
    { skipRootFilters: true },
  );
  if (root.range.limit !== undefined || root.range.offset !== undefined) {
    throw new RestError(400, 'PGRST100', `limit and offset are not supported on ${req.method}`, {
      details: 'Use filters to choose the rows to change.',
    });
  }
  const returning = representation
    ? returningColumns(root, [])
    : headersOnly
      ? table.primaryKey
      : null;

  const params = new Params(req.limits.maxFilteredTextBytes);
  let mutation: string;
  const upsert = req.method === 'POST' && req.prefs.resolution !== undefined;
  if (req.method === 'POST') {
    const source = bodySource(req, table, req.payload!);
    const conflictColumns = req.query.onConflict ?? table.primaryKey;
    for (const name of conflictColumns)
      if (!table.columns.has(name)) throw columnNotFound(table.name, name);
    mutation = insertSql(
      {
        schema,
        table,
        body: source,
        ...(upsert
          ? { onConflict: { columns: conflictColumns, resolution: req.prefs.resolution! } }
          : {}),
        returning,
      },
      params,
    );
  } else if (req.method === 'PATCH') {
    const payload = req.payload!;
    if (payload.isArray) throw invalidBody('A PATCH body must be a single JSON object');
    const where = planRootFilters(cache, table, req.query, '');
    mutation = updateSql(
      { schema, table, body: bodySource(req, table, payload), where, returning },
      params,
    );
  } else {
    const where = planRootFilters(cache, table, req.query, '');
    mutation = deleteSql({ schema, table, where, returning }, params);
  }

  const single = req.media.kind === 'single';
  const sql = wrapStatement({
    prefix: `${MUTATION_CTE} as (${mutation})`,
    source: representation
      ? nodeSql(root, params, { ...req.limits, capRoot: false })
      : headersOnly
        ? `select * from ${MUTATION_CTE}`
        : `select 1 from ${MUTATION_CTE}`,
    total: 'null::bigint',
    body: representation
      ? bodySql(req.media, 'object', single)
      : headersOnly
        ? `coalesce(json_agg(_pgrst_t)::text, '[]')`
        : `''`,
    ...(upsert && req.prefs.resolution === 'merge-duplicates'
      ? { extra: `${INSERTED_SQL} as inserted` }
      : {}),
  });

  return {
    sql,
    params: params.values,
    readOnly: false,
    acceptedPages: acceptedPages(req.prefs, affectedChecks(req)),
    respond(row) {
      checkAffected(req, row);
      const total = req.prefs.count !== undefined ? row.page : null;
      const headers: Record<string, string | null> = {
        'Preference-Applied': appliedPreferences(req.prefs, [
          'return',
          'count',
          'handling',
          ...(req.method === 'POST' ? (['resolution', 'missing'] as const) : []),
          ...(req.method === 'PATCH' ? (['missing', 'maxAffected'] as const) : []),
          ...(req.method === 'DELETE' ? (['maxAffected'] as const) : []),
        ]),
        [PROFILE_HEADER]: req.profileNegotiated && representation ? 'public' : null,
        'Content-Type': representation ? req.media.contentType : null,
      };
      const body = representation ? row.body : null;
      if (req.method === 'POST') {
        headers['Content-Range'] = contentRange(1, 0, total);
        if (headersOnly) headers['Location'] = location(table, row.body);
        const inserted = row.inserted ?? null;
        const status =
          req.prefs.resolution === 'merge-duplicates' && inserted !== null && inserted <= 0
            ? 200
            : 201;
        return reply(status, body, headers);
      }
      headers['Content-Range'] =
        req.method === 'PATCH' ? contentRange(0, row.page - 1, total) : contentRange(1, 0, total);
      return reply(representation ? 200 : 204, body, headers);
    },
  };
}
