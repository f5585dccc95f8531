import { RestError } from './errors.ts';
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

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'name', 'citext']);

/**
 * What reading one byte costs each filter that reads text, against a byte of `like` (measured
 * on PGlite: like, ilike and a plain regular expression 15–35 ns a byte, a regular expression
 * with bounded repeats up to 250, `to_tsvector` 260–370).
 */
const TEXT_WEIGHT = { like: 1, ilike: 1, match: 8, imatch: 8, fts: 16 } as const;

/**
 * `expr`, after it adds what it is about to read to the request's total of filtered text
 * (`_rest.take_filtered_text`, server/db/platform/012-rest-filtered-text.sql), which stops the
 * statement past `params.filteredTextBudget`. A pattern or full-text filter reads the whole
 * value of every row it is tested on, and on text columns that may be long (a description of
 * 10,000 characters) `description=fts.x` parses the organisation's every description in one
 * statement; on the embedded database every other organisation waits for it. The CASE makes
 * the count come first, and keeps the filter from being tested on rows the others left out
 * (it is volatile, so it runs after them).
 */
function charged(expr: string, lhs: string, isText: boolean, weight: number, params: Params) {
  if (params.filteredTextBudget === undefined) return expr;
  const size = isText ? `octet_length(${lhs})` : `pg_column_size(${lhs})`;
  const budget = params.add(String(params.filteredTextBudget));
  return `case when _rest.take_filtered_text(${size}::bigint * ${weight}, ${budget}::bigint) then ${expr} end`;
}

/**
 * Refuses what makes a regular expression slow on long text: back-references (`\1`), which
 * Postgres matches by backtracking (`^(.*)\1$`: 17 minutes for 300 descriptions of 10,000
 * characters), and lookahead or lookbehind constraints (`(?=.*x)`: 0.2 s for each such
 * description). Neither can be bounded by the size of the text read.
 */
function refuseSlowPattern(pattern: string): void {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (next >= '1' && next <= '9') throw slowPattern('back-references');
      i += 1;
    } else if (c === '(' && pattern[i + 1] === '?') {
      const kind = pattern.slice(i + 2, i + 4);
      if (kind.startsWith('=') || kind.startsWith('!') || kind === '<=' || kind === '<!') {
        throw slowPattern('lookahead and lookbehind constraints');
      }
    }
  }
}

/** How many values an array literal (`{a,"b,c",d}`) holds. */
function listLength(literal: string): number {
  let count = 1;
  let quoted = false;
  for (let i = 0; i < literal.length; i++) {
    const c = literal[i];
    if (c === '\\') i += 1;
    else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) count += 1;
  }
  return count;
}

function slowPattern(what: string): RestError {
  return new RestError(400, '2201B', `invalid regular expression: ${what} are not supported`, {
    details: 'Matching them can take minutes on long text, and one request must not.',
    hint: 'Write the pattern without them, or filter with like or ilike.',
  });
}

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
  const path = filter.field.jsonPath;
  const isTsvector = column.baseType === 'tsvector' && path.length === 0;
  const isText = path.length > 0 ? path.at(-1)!.arrow === '->>' : TEXT_TYPES.has(column.baseType);
  let lhs = fieldSql(qualifier, column, path, params);
  let expr: string;
  switch (op.kind) {
    case 'quant': {
      if (op.operator === 'match' || op.operator === 'imatch') refuseSlowPattern(op.value);
      const value =
        op.operator === 'like' || op.operator === 'ilike' ? op.value.replace(/\*/g, '%') : op.value;
      const placeholder = params.add(value);
      const rhs = op.quantifier ? `${op.quantifier}(${placeholder})` : placeholder;
      expr = `${lhs} ${QUANT_SQL[op.operator]} ${rhs}`;
      if (op.operator in TEXT_WEIGHT) {
        // Each pattern of `like(any).{a,b,c}` reads the value again.
        const patterns = op.quantifier ? listLength(op.value) : 1;
        const weight = TEXT_WEIGHT[op.operator as keyof typeof TEXT_WEIGHT] * patterns;
        expr = charged(expr, lhs, isText, weight, params);
      }
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
      const text = lhs;
      if (!isTsvector) lhs = `to_tsvector(${language}${lhs})`;
      expr = `${lhs} @@ ${FTS_SQL[op.operator]}(${language}${params.add(op.value)})`;
      // A tsvector column is matched as it is; any other is parsed, row by row.
      if (!isTsvector) expr = charged(expr, text, isText, TEXT_WEIGHT.fts, params);
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
