/** What the REST service knows about the exposed schema, read from `pg_catalog`. */

export interface Column {
  name: string;
  /** `format_type(atttypid, atttypmod)`: usable as a type in generated SQL. */
  type: string;
  /** Name of the underlying base type (a domain's base), e.g. `jsonb`, `tsvector`, `_text`. */
  baseType: string;
  nullable: boolean;
  /** `pg_get_expr` of the column default, used for `Prefer: missing=default`. */
  defaultExpr: string | null;
  generated: boolean;
}

export interface Table {
  name: string;
  /** `r` table, `v` view, `m` materialized view, `f` foreign table, `p` partitioned table. */
  kind: string;
  columns: Map<string, Column>;
  columnList: Column[];
  primaryKey: string[];
  /** Column sets of primary-key and unique constraints. */
  uniqueKeys: string[][];
}

export interface ForeignKey {
  constraint: string;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

export type Cardinality = 'many-to-one' | 'one-to-many' | 'one-to-one';

/** One way of embedding `foreignTable` from `table`, derived from a foreign key. */
export interface Relationship {
  cardinality: Cardinality;
  constraint: string;
  table: string;
  foreignTable: string;
  /** Pairs of (column of `table`, column of `foreignTable`) that are equal. */
  columns: [string, string][];
  isSelf: boolean;
}

export interface RoutineParam {
  name: string;
  type: string;
  required: boolean;
  variadic: boolean;
}

export type ReturnKind = 'void' | 'scalar' | 'composite';

export interface Routine {
  name: string;
  params: RoutineParam[];
  returnKind: ReturnKind;
  returnsSet: boolean;
  /** The `format_type` of the return type (for error messages and scalar shapes). */
  returnType: string;
  /** Columns of a composite result; a table's columns when it returns a table's row type. */
  returnColumns: Column[];
  /** The exposed table whose row type is returned, so its relationships can be embedded. */
  returnTable: string | null;
  volatility: 'immutable' | 'stable' | 'volatile';
}

export interface SchemaCache {
  schema: string;
  tables: Map<string, Table>;
  relationships: Map<string, Relationship[]>;
  routines: Map<string, Routine[]>;
  /** Type names in `pg_catalog` and the exposed schema, for validating casts. */
  typeNames: Set<string>;
  /** Catalog fingerprint the cache was built from. */
  fingerprint: string;
  /**
   * Relations whose reads may change with no write in between (`unrepeatable-reads.ts`): never
   * answered from the read cache.
   */
  unrepeatable: Set<string>;
}
