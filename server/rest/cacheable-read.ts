import type { ReadNode } from './plan-types.ts';
import type { SchemaCache } from './schema-types.ts';

/**
 * Date and time input Postgres reads as the time of the statement: `'now'::timestamptz`,
 * `'today'::date`, also inside arrays and ranges (`{now}`, `[now,infinity)`), in any case and
 * with spaces around. A filter value is a bound parameter that Postgres casts to the column's
 * type, so `?expires_at=gt.now` reads the clock as much as `now()` does.
 */
const CLOCK_INPUT = /\b(now|today|tomorrow|yesterday)\b/i;

/** Cast targets in `select` whose input never reads the clock (see `casts.ts`). */
const CLOCK_FREE_CASTS = new Set([
  'integer',
  'int',
  'smallint',
  'bigint',
  'int2',
  'int4',
  'int8',
  'real',
  'double precision',
  'float',
  'float4',
  'float8',
  'decimal',
  'numeric',
  'boolean',
  'bool',
  'character',
  'character varying',
  'char',
  'varchar',
  'bpchar',
  'text',
  'json',
  'jsonb',
  'uuid',
  'interval',
  'bytea',
]);

function* nodesOf(node: ReadNode): Generator<ReadNode> {
  yield node;
  for (const embed of node.embeds) yield* nodesOf(embed);
}

/**
 * Whether the answer to a planned table read may be kept by PGlite's read cache: no relation it
 * reads (the root and every embed, however the request named them: table, foreign-key column or
 * constraint) may change with no write in between (`unrepeatable-reads.ts`), no value of the
 * statement is a time such as `now`, and no cast in `select` may turn a stored text into one.
 */
export function isCacheableRead(
  cache: SchemaCache,
  root: ReadNode,
  params: readonly unknown[],
): boolean {
  for (const node of nodesOf(root)) {
    if (cache.unrepeatable.has(node.table.name)) return false;
    for (const item of node.items) {
      if (item.kind === 'field' && item.castSql !== undefined) {
        if (!CLOCK_FREE_CASTS.has(item.castSql.replace(/"/g, ''))) return false;
      }
    }
  }
  return !params.some((value) => typeof value === 'string' && CLOCK_INPUT.test(value));
}
