import type { MediaChoice } from './negotiate.ts';
import type { ReadNode } from './plan-types.ts';
import { fieldSql, joinConditions, orderSql, whereSql } from './sql-filter.ts';
import { Params, ident } from './sql-util.ts';

const ROW = '_pgrst_t';

/**
 * What a read may produce: `maxRows` (`[api] max_rows`, PostgREST's db-max-rows) caps the root's
 * rows when `capRoot` and the rows of a to-many embed under each parent row; `maxEmbeddedBytes`
 * (steward.toml `[api] max_embedded_size`) caps the bytes of embedded resources in all the
 * root's rows together.
 *
 * Nested embeds multiply rows (a thousand rows each embedding a thousand), and the planner may
 * compute an embed once and repeat it for every parent row (Materialize, Memoize), so counting
 * rows where an embed is computed says nothing of what the answer holds. The root's rows are
 * what the answer is made of: each one, as it is produced, passes the size of its embeds to
 * `_rest.take_embedded_bytes` (server/db/platform/005-rest.sql), which stops the statement as
 * soon as the total passes the bound, long before gigabytes of JSON are built.
 */
export interface RowBounds {
  maxRows: number;
  maxEmbeddedBytes: number;
  capRoot: boolean;
}

function rangeSql(node: ReadNode, params: Params, cap: number | undefined): string {
  let sql = '';
  const limit = cap === undefined ? node.range.limit : Math.min(node.range.limit ?? cap, cap);
  if (limit !== undefined) sql += ` limit ${params.add(String(limit))}`;
  if (node.range.offset !== undefined) sql += ` offset ${params.add(String(node.range.offset))}`;
  return sql;
}

/**
 * The SELECT for one level of a read. Embeds are lateral subqueries, as in PostgREST: a to-one
 * embed is one row turned into an object with `row_to_json` (or spread into the parent's
 * columns), a to-many embed is `json_agg` of its rows, `[]` when there are none.
 */
export function nodeSql(node: ReadNode, params: Params, bounds: RowBounds): string {
  return levelSql(node, params, bounds, true, bounds.capRoot ? bounds.maxRows : undefined);
}

function levelSql(
  node: ReadNode,
  params: Params,
  bounds: RowBounds,
  root: boolean,
  cap: number | undefined,
): string {
  const columns: string[] = [];
  for (const item of node.items) {
    if (item.kind === 'star') {
      columns.push(`${node.qualifier}.*`);
      continue;
    }
    let sql = fieldSql(node.qualifier, item.column, item.jsonPath, params);
    if (item.castSql) sql = `cast(${sql} as ${item.castSql})`;
    columns.push(`${sql} as ${ident(item.outputName)}`);
  }
  const joins: string[] = [];
  const embeddedSizes: string[] = [];
  for (const embed of node.embeds) {
    const info = embed.embed!;
    if (!info.hasOutput) continue;
    const join = info.joinType === 'inner' ? 'inner join lateral' : 'left join lateral';
    if (info.toOne) {
      const sub = levelSql(embed, params, bounds, false, undefined);
      joins.push(`${join} (${sub}) as ${info.lateral} on true`);
      columns.push(
        info.spread
          ? `${info.lateral}.*`
          : `row_to_json(${info.lateral}.*) as ${ident(info.outputName)}`,
      );
      embeddedSizes.push(`coalesce(pg_column_size(${info.lateral}.*), 0)`);
    } else {
      const sub = levelSql(embed, params, bounds, false, bounds.maxRows);
      const agg = `select json_agg(${ROW}) as "agg" from (${sub}) as ${ROW}`;
      const on = info.joinType === 'inner' ? `${info.lateral}."agg" is not null` : 'true';
      joins.push(`${join} (${agg}) as ${info.lateral} on ${on}`);
      columns.push(`coalesce(${info.lateral}."agg", '[]') as ${ident(info.outputName)}`);
      embeddedSizes.push(`coalesce(pg_column_size(${info.lateral}."agg"), 0)`);
    }
  }
  const conditions = [...joinConditions(node), ...whereSql(node, params)];
  if (root && embeddedSizes.length > 0) {
    // Last, so that it sees only rows the other conditions keep (volatile: never pushed down).
    const budget = params.add(String(bounds.maxEmbeddedBytes));
    conditions.push(`_rest.take_embedded_bytes(${embeddedSizes.join(' + ')}, ${budget})`);
  }
  let sql = `select ${columns.join(', ')} from ${node.from}`;
  if (joins.length > 0) sql += ' ' + joins.join(' ');
  if (conditions.length > 0) sql += ` where ${conditions.join(' and ')}`;
  return sql + orderSql(node.order, params) + rangeSql(node, params, cap);
}

/**
 * The rows the count covers: the root's filters, with `!inner` embeds as `exists`, and no
 * range or order (as PostgREST's count query).
 */
export function countSql(root: ReadNode, params: Params): string {
  const conditions = whereSql(root, params, true);
  return `select 1 from ${root.from}${conditions.length > 0 ? ` where ${conditions.join(' and ')}` : ''}`;
}

/** `Prefer: count=…`, and what the count's own statement needs. */
export interface CountOptions {
  kind: 'exact' | 'planned' | 'estimated';
  /** CTEs the counted rows read from (a function call), rebuilt for the planner's statement. */
  prefix?: (params: Params) => string;
}

/**
 * The total of a read, as PostgREST computes it: `exact` counts the rows `rows` yields;
 * `planned` is the planner's estimate for them (`_rest.planned_rows`, EXPLAIN); `estimated` is
 * exact up to `maxRows` and the estimate (never below what was counted) past it.
 */
export function totalSql(
  count: CountOptions,
  rows: (params: Params) => string,
  params: Params,
  maxRows: number,
): string {
  const planned = () => {
    const own = new Params();
    const text = `${count.prefix ? `with ${count.prefix(own)} ` : ''}${rows(own)}`;
    return `_rest.planned_rows(${params.add(text)}, ${params.add(JSON.stringify(own.values))}::jsonb)`;
  };
  if (count.kind === 'planned') return planned();
  if (count.kind === 'exact') return `(select count(*) from (${rows(params)}) _pgrst_c)`;
  const limit = params.add(String(maxRows + 1));
  return `(select case when _pgrst_e.n > ${maxRows} then greatest(_pgrst_e.n, ${planned()}) else _pgrst_e.n end from (select count(*) as n from (${rows(params)} limit ${limit}) _pgrst_c) _pgrst_e)`;
}

/** Result shape of a read's rows: from a table (objects) or from a scalar function. */
export type RowShape = 'object' | 'scalar';

/** The body expression over `_pgrst_t`, built in Postgres as text. */
export function bodySql(media: MediaChoice, shape: RowShape, single: boolean): string {
  const value = shape === 'scalar' ? `${ROW}.pgrst_scalar` : ROW;
  const strip = (sql: string) => (media.stripNulls ? `json_strip_nulls(${sql})` : sql);
  if (media.kind === 'csv' && shape === 'object') {
    const header = `(select coalesce(string_agg(k, ','), '') from (select json_object_keys(row_to_json(${ROW})) as k from (select * from pgrst_source limit 1) ${ROW}) keys)`;
    return `${header} || E'\\n' || coalesce(string_agg(substring(${ROW}::text, 2, length(${ROW}::text) - 2), E'\\n'), '')`;
  }
  if (single) return `coalesce((${strip(`json_agg(${value})->0`)})::text, 'null')`;
  return `coalesce((${strip(`json_agg(${value})`)})::text, '[]')`;
}

/** The pieces of the one statement every request runs. */
export interface StatementParts {
  /** CTEs before `pgrst_source` (the mutation or the function call). */
  prefix?: string;
  /** The rows of the response. */
  source: string;
  total: string;
  body: string;
  extra?: string;
}

/**
 * One statement answering a request: `total` (the count, when asked), `page` (rows in the
 * response) and `body` (its JSON or CSV text, built by Postgres), plus `extra` columns.
 */
export function wrapStatement(parts: StatementParts): string {
  const ctes = `${parts.prefix ? `${parts.prefix}, ` : ''}pgrst_source as (${parts.source})`;
  const extra = parts.extra ? `, ${parts.extra}` : '';
  return `with ${ctes} select ${parts.total} as total, count(${ROW})::int as page, ${parts.body} as body${extra} from (select * from pgrst_source) ${ROW}`;
}

export interface ReadStatementOptions {
  media: MediaChoice;
  /** Compute the total row count in the same statement (`Prefer: count=…`). */
  count?: CountOptions;
  /** HEAD: no body is sent, so none is built. */
  head: boolean;
  shape?: RowShape;
  /** What the read may return (see `RowBounds`). */
  bounds: Omit<RowBounds, 'capRoot'>;
  /** Wrap the body as one value (a function returning one row or one scalar). */
  single?: boolean;
  prefix?: string;
}

/** The statement of a read (of a table, or of a function's result when `prefix` calls it). */
export function readStatement(
  root: ReadNode,
  params: Params,
  options: ReadStatementOptions,
): string {
  const source = nodeSql(root, params, { ...options.bounds, capRoot: true });
  const total = options.count
    ? totalSql(options.count, (p) => countSql(root, p), params, options.bounds.maxRows)
    : 'null::bigint';
  const single = options.single || options.media.kind === 'single';
  const body = options.head ? `''` : bodySql(options.media, options.shape ?? 'object', single);
  return wrapStatement({
    ...(options.prefix ? { prefix: options.prefix } : {}),
    source,
    total,
    body,
  });
}
