/** The parsed form of a PostgREST query string, before it is checked against the schema. */

/** One step of a JSON path: `->key`, `->>key`, `->0`. */
export interface JsonStep {
  arrow: '->' | '->>';
  key: string;
  /** True for an array index (`->0`, `->-1`): bound as an integer. */
  index: boolean;
}

export interface FieldRef {
  name: string;
  jsonPath: JsonStep[];
}

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'field'; field: FieldRef; alias?: string; cast?: string }
  | {
      kind: 'embed';
      relation: string;
      alias?: string;
      hint?: string;
      joinType?: 'inner' | 'left';
      spread: boolean;
      children: SelectItem[];
    };

export const QUANT_OPERATORS = [
  'eq',
  'gte',
  'gt',
  'lte',
  'lt',
  'like',
  'ilike',
  'match',
  'imatch',
] as const;
export const SIMPLE_OPERATORS = ['neq', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj'] as const;
export const FTS_OPERATORS = ['fts', 'plfts', 'phfts', 'wfts'] as const;
export const IS_VALUES = ['null', 'not_null', 'true', 'false', 'unknown'] as const;

export type QuantOperator = (typeof QUANT_OPERATORS)[number];
export type SimpleOperator = (typeof SIMPLE_OPERATORS)[number];
export type FtsOperator = (typeof FTS_OPERATORS)[number];
export type IsValue = (typeof IS_VALUES)[number];

export type Operation =
  | { kind: 'quant'; operator: QuantOperator; quantifier?: 'any' | 'all'; value: string }
  | { kind: 'simple'; operator: SimpleOperator; value: string }
  | { kind: 'in'; values: string[] }
  | { kind: 'is'; value: IsValue }
  | { kind: 'isdistinct'; value: string }
  | { kind: 'fts'; operator: FtsOperator; language?: string; value: string };

export interface Filter {
  field: FieldRef;
  negate: boolean;
  operation: Operation;
}

export type LogicTree =
  | { kind: 'filter'; filter: Filter }
  | { kind: 'group'; negate: boolean; operator: 'and' | 'or'; children: LogicTree[] };

export interface OrderTerm {
  /** Set for a related order, `order=parent(col)`: the embed's name or alias. */
  relation?: string;
  field: FieldRef;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

/** Something addressed to an embedded resource by a dotted path (`posts.comments.order`). */
export interface AtPath<T> {
  path: string[];
  value: T;
}

export interface Range {
  limit?: number;
  offset?: number;
}

export interface ParsedQuery {
  select: SelectItem[];
  filters: AtPath<Filter>[];
  logic: AtPath<LogicTree>[];
  order: AtPath<OrderTerm[]>[];
  ranges: AtPath<Range>[];
  columns?: string[];
  onConflict?: string[];
  /** For `GET /rpc/fn`: parameters whose value is not a filter are the function's arguments. */
  rpcArgs: [string, string][];
}
