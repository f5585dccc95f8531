import { RestError, invalidBody } from './errors.ts';
import { findRoutine } from './find-routine.ts';
import { readResponse } from './handle-read.ts';
import { appliedPreferences } from './preferences.ts';
import type { Prepared, RestRequest } from './handler-types.ts';
import { planRead } from './plan-read.ts';
import { acceptedPages, assertMaxAffected, rangeStatus, reply, totalOf } from './respond.ts';
import type { Column, Routine, SchemaCache, Table } from './schema-types.ts';
import { bodySql, readStatement, totalSql, wrapStatement } from './sql-read.ts';
import type { CallArguments } from './sql-rpc.ts';
import { CALL_CTE, callSql } from './sql-rpc.ts';
import { Params, ident } from './sql-util.ts';

/** The result of a function as a table: a table's row type keeps its relationships. */
function resultTable(cache: SchemaCache, routine: Routine): Table {
  const table = routine.returnTable ? cache.tables.get(routine.returnTable) : undefined;
  if (table) return table;
  const columns = new Map<string, Column>(
    routine.returnColumns.map((column) => [column.name, column]),
  );
  return {
    name: routine.name,
    kind: 'f',
    columns,
    columnList: routine.returnColumns,
    primaryKey: [],
    uniqueKeys: [],
  };
}

function callArguments(req: RestRequest, routine: Routine, wholeBody: boolean): CallArguments {
  if (req.method === 'POST') {
    const payload = req.payload!;
    if (wholeBody) return { kind: 'whole-body', json: payload.json, param: routine.params[0]! };
    if (payload.isArray)
      throw invalidBody('The arguments of a function call must be a JSON object');
    const keys = new Set(payload.keys);
    return {
      kind: 'body',
      json: payload.json,
      params: routine.params.filter((param) => keys.has(param.name)),
    };
  }
  const values: CallArguments & { kind: 'query' } = { kind: 'query', values: [] };
  for (const [key, value] of req.query.rpcArgs) {
    const param = routine.params.find((p) => p.name === key)!;
    values.values.push([param, value]);
  }
  return values;
}

/**
 * `/rpc/fn`: POST with named arguments in the body (or the whole body for one unnamed json
 * parameter), GET/HEAD with arguments in the query string in a READ ONLY transaction. Scalars
 * come back bare, composites as an object, sets as an array that `select`, filters, `order`,
 * `limit` and `.single()` apply to; a `void` function answers 204.
 */
export function prepareRpc(cache: SchemaCache, req: RestRequest): Prepared {
  const isPost = req.method === 'POST';
  const keys = isPost ? req.payload!.keys : req.query.rpcArgs.map(([key]) => key);
  if (!isPost && new Set(keys).size !== keys.length) {
    throw new RestError(400, 'PGRST100', 'A function argument is given more than once');
  }
  const { routine, wholeBody } = findRoutine(cache, req.resource, new Set(keys), isPost);
  if (
    req.prefs.handling === 'strict' &&
    req.prefs.maxAffected !== undefined &&
    !routine.returnsSet
  ) {
    // Only the rows of a set can be counted; PostgREST refuses the rest before calling.
    throw new RestError(
      400,
      'PGRST128',
      'Function must return SETOF or TABLE when max-affected preference is used with handling=strict',
    );
  }
  const params = new Params(req.limits.maxFilteredTextBytes);
  const call = callSql(cache.schema, routine, callArguments(req, routine, wholeBody), params);
  const prefix = `${CALL_CTE} as (${call})`;
  // The planner's count explains the call in a statement of its own, with its own parameters.
  const countPrefix = (own: Params) =>
    `${CALL_CTE} as (${callSql(cache.schema, routine, callArguments(req, routine, wholeBody), own)})`;
  const head = req.method === 'HEAD';
  const single = !routine.returnsSet;
  const readOnly = !isPost || routine.volatility !== 'volatile';
  let sql: string;
  let offset = 0;

  if (routine.returnKind === 'composite') {
    const qualifier = ident(CALL_CTE);
    const root = planRead(
      cache,
      {
        name: routine.returnTable ?? routine.name,
        table: resultTable(cache, routine),
        from: qualifier,
        qualifier,
      },
      req.query,
    );
    offset = root.range.offset ?? 0;
    sql = readStatement(root, params, {
      media: req.media,
      ...(req.prefs.count ? { count: { kind: req.prefs.count, prefix: countPrefix } } : {}),
      head,
      single,
      prefix,
      bounds: req.limits,
    });
  } else {
    const { query } = req;
    const onlyStar = query.select.length === 1 && query.select[0]!.kind === 'star';
    if (!onlyStar || query.filters.length > 0 || query.logic.length > 0 || query.order.length > 0) {
      throw new RestError(
        400,
        'PGRST100',
        `The function ${cache.schema}.${routine.name} returns ${routine.returnType}, not rows`,
        {
          details: 'select, filters and order apply only to functions that return rows.',
        },
      );
    }
    const range = query.ranges.find((r) => r.path.length === 0)?.value ?? {};
    offset = range.offset ?? 0;
    let source = `select pgrst_scalar from ${CALL_CTE}`;
    const limit = Math.min(range.limit ?? req.limits.maxRows, req.limits.maxRows);
    source += ` limit ${params.add(String(limit))}`;
    if (range.offset !== undefined) source += ` offset ${params.add(String(range.offset))}`;
    const total = req.prefs.count
      ? totalSql(
          { kind: req.prefs.count, prefix: countPrefix },
          () => `select 1 from ${ident(CALL_CTE)}`,
          params,
          req.limits.maxRows,
        )
      : 'null::bigint';
    const body =
      head || routine.returnKind === 'void'
        ? `''`
        : bodySql(req.media, 'scalar', single || req.media.kind === 'single');
    sql = wrapStatement({ prefix, source, total, body });
  }

  const APPLIED = ['count', 'handling', 'maxAffected'] as const;
  return {
    sql,
    params: params.values,
    readOnly,
    // What `respond` checks: the rows against max-affected, and (but for a void function's)
    // `.single()` in `readResponse`.
    acceptedPages: acceptedPages(req.prefs, {
      single: routine.returnKind !== 'void' && req.media.kind === 'single',
      limitsAffected: true,
    }),
    respond(row) {
      // Throwing here rolls back whatever the function changed.
      assertMaxAffected(req.prefs, row.page);
      if (routine.returnKind === 'void') {
        return reply(204, null, {
          'Content-Range': rangeStatus(offset, row.page, totalOf(row)).range,
          'Preference-Applied': appliedPreferences(req.prefs, APPLIED),
        });
      }
      return readResponse(req, row, offset, head, APPLIED);
    },
  };
}
