import type { Filter, JsonStep, Range } from './query-types.ts';
import type { Column, Relationship, Table } from './schema-types.ts';

/** A select item checked against the schema. */
export type OutputItem =
  | { kind: 'star' }
  | { kind: 'field'; column: Column; jsonPath: JsonStep[]; castSql?: string; outputName: string };

/** A filter or logic tree checked against the schema, ready to render. */
export type ResolvedLogic =
  | { kind: 'filter'; filter: Filter; column: Column }
  | { kind: 'group'; negate: boolean; operator: 'and' | 'or'; children: ResolvedLogic[] }
  /** `embed=is.null` / `embed=not.is.null`: whether a related row exists. */
  | { kind: 'embed-null'; negate: boolean; embed: ReadNode };

export interface ResolvedOrder {
  /** The lateral alias of a to-one embed for a related order, else the node's own qualifier. */
  qualifier: string;
  column: Column;
  jsonPath: JsonStep[];
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export interface EmbedInfo {
  rel: Relationship;
  joinType: 'inner' | 'left';
  spread: boolean;
  toOne: boolean;
  /** Key of the embed in the parent's JSON object. */
  outputName: string;
  /** Alias of the lateral subquery in the parent's FROM clause. */
  lateral: string;
  /** False for an empty embed (`table()`): only used for filtering. */
  hasOutput: boolean;
}

/** One level of a read: the root resource or an embedded one. */
export interface ReadNode {
  /** The name the request used (table or relationship name), for embed paths. */
  name: string;
  alias?: string;
  table: Table;
  /** The FROM item, e.g. `"public"."notes"` or `"public"."notes" as "pgrst_1"`. */
  from: string;
  /** How this level's columns are qualified in SQL. */
  qualifier: string;
  items: OutputItem[];
  embeds: ReadNode[];
  where: ResolvedLogic[];
  order: ResolvedOrder[];
  range: Range;
  embed?: EmbedInfo;
  /** The parent's qualifier (for join conditions), set on embeds. */
  parentQualifier?: string;
}
