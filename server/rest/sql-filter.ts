import type { ReadNode, ResolvedLogic, ResolvedOrder } from './plan-types.ts';
import type { Filter, JsonStep, QuantOperator, SimpleOperator } from './query-types.ts';
import type { Column } from './schema-types.ts';
import type { Params } from './sql-util.ts';
import { ident } from './sql-util.ts';

const QUANT_SQL: Record<QuantOperator, string> = {
  eq: '=',
  gte: '>=',
  gt: '>',
  lte: '<=',
  lt: '<',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
};

const SIMPLE_SQL: Record<SimpleOperator, string> = {
  neq: '<>',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};

const FTS_SQL = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
} as const;

const isJson = (column: Column) => column.baseType === 'json' || column.baseType === 'jsonb';

/**
 * A column reference with an optional JSON path. Path keys are bound parameters; a column that
 * is not json/jsonb is converted with `to_jsonb` first, as PostgREST does.
 */
export function fieldSql(
  qualifier: string,
  column: Column,
  path: JsonStep[],
  params: Params,
): string {
  let sql = `${qualifier}.${ident(column.name)}`;
  if (path.length === 0) return sql;
  if (!isJson(column)) sql = `to_jsonb(${sql})`;
  for (const step of path) {
    sql += `${step.arrow}${params.add(step.key)}::${step.index ? 'int' : 'text'}`;
  }
  return sql;
}

/** A Postgres array literal (`{"a","b"}`) of text values, bound as one parameter. */
export function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

function filterSql(filter: Filter, column: Column, qualifier: string, params: Params): string {
  const op = filter.operation;
  const isTsvector = column.baseType === 'tsvector' && filter.field.jsonPath.length === 0;
  let lhs = fieldSql(qualifier, column, filter.field.jsonPath, params);
  let expr: string;
  switch (op.kind) {
    case 'quant': {
      const value =
        op.operator === 'like' || op.operator === 'ilike' ? op.value.replace(/\*/g, '%') : op.value;
      const placeholder = params.add(value);
      const rhs = op.quantifier ? `${op.quantifier}(${placeholder})` : placeholder;
      expr = `${lhs} ${QUANT_SQL[op.operator]} ${rhs}`;
      break;
    }
    case 'simple':
      expr = `${lhs} ${SIMPLE_SQL[op.operator]} ${params.add(op.value)}`;
      break;
    case 'in':
      expr =
        op.values.length === 1 && op.values[0] === ''
          ? `${lhs} = any('{}')`
          : `${lhs} = any(${params.add(arrayLiteral(op.values))})`;
      break;
    case 'is':
      expr = `${lhs} is ${op.value === 'not_null' ? 'not null' : op.value}`;
      break;
    case 'isdistinct':
      expr = `${lhs} is distinct from ${params.add(op.value)}`;
      break;
    case 'fts': {
      const language = op.language === undefined ? '' : `${params.add(op.language)}::regconfig, `;
      if (!isTsvector) lhs = `to_tsvector(${language}${lhs})`;
      expr = `${lhs} @@ ${FTS_SQL[op.operator]}(${language}${params.add(op.value)})`;
      break;
    }
  }
  return filter.negate ? `not (${expr})` : expr;
}

/** `exists (...)`: whether `embed` has a related row matching its filters. */
export function existsSql(embed: ReadNode, params: Params): string {
  const conditions = [...joinConditions(embed), ...whereSql(embed, params, true)];
  return `exists (select 1 from ${embed.from} where ${conditions.join(' and ')})`;
}

/** The join condition of an embed with its parent: the foreign-key columns are equal. */
export function joinConditions(node: ReadNode): string[] {
  if (!node.embed || !node.parentQualifier) return [];
  return node.embed.rel.columns.map(
    ([parentColumn, column]) =>
      `${node.qualifier}.${ident(column)} = ${node.parentQualifier}.${ident(parentColumn)}`,
  );
}

export function logicSql(logic: ResolvedLogic, qualifier: string, params: Params): string {
  switch (logic.kind) {
    case 'filter':
      return filterSql(logic.filter, logic.column, qualifier, params);
    case 'group': {
      const joined = logic.children
        .map((child) => logicSql(child, qualifier, params))
        .join(` ${logic.operator} `);
      return `${logic.negate ? 'not ' : ''}(${joined})`;
    }
    case 'embed-null':
      return `${logic.negate ? '' : 'not '}${existsSql(logic.embed, params)}`;
  }
}

/**
 * The WHERE conditions of a node besides its join: filters, logic trees, and `exists` for
 * `!inner` embeds that select nothing (an embed with output is inner-joined instead).
 */
export function whereSql(node: ReadNode, params: Params, countOnly = false): string[] {
  const conditions = node.where.map((logic) => logicSql(logic, node.qualifier, params));
  for (const embed of node.embeds) {
    if (embed.embed?.joinType === 'inner' && (countOnly || !embed.embed.hasOutput)) {
      conditions.push(existsSql(embed, params));
    }
  }
  return conditions;
}

export function orderSql(order: ResolvedOrder[], params: Params): string {
  if (order.length === 0) return '';
  const terms = order.map((term) => {
    let sql = fieldSql(term.qualifier, term.column, term.jsonPath, params);
    if (term.direction) sql += ` ${term.direction}`;
    if (term.nulls) sql += ` nulls ${term.nulls}`;
    return sql;
  });
  return ` order by ${terms.join(', ')}`;
}
