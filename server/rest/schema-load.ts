import type { Queryable } from '../db/database.ts';
import { unrepeatableRelations, type ReadSource } from './unrepeatable-reads.ts';
import {
  UNREPEATABLE_SOURCES_SQL,
  COLUMNS_SQL,
  COMPOSITE_COLUMNS_SQL,
  CONSTRAINTS_SQL,
  FINGERPRINT_SQL,
  ROUTINES_SQL,
  TYPES_SQL,
} from './schema-sql.ts';
import type {
  Column,
  ForeignKey,
  Relationship,
  Routine,
  RoutineParam,
  SchemaCache,
  Table,
} from './schema-types.ts';

interface ColumnRow {
  table_name: string;
  kind: string;
  name: string | null;
  type: string;
  base_type: string;
  nullable: boolean;
  default_expr: string | null;
  generated: boolean;
}

interface ConstraintRow {
  name: string;
  type: 'p' | 'u' | 'f';
  table_name: string;
  columns: string[];
  ref_table: string | null;
  ref_columns: string[];
}

interface RoutineRow {
  name: string;
  volatility: string;
  returns_set: boolean;
  ret_typname: string;
  ret_typtype: string;
  ret_type: string;
  ret_relid: string;
  ret_table: string | null;
  arg_names: string[];
  arg_modes: string[];
  arg_types: string[];
  nargs: number;
  nargdefaults: number;
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && a.every((column) => b.includes(column));

function buildTables(columnRows: ColumnRow[], constraints: ConstraintRow[]): Map<string, Table> {
  const tables = new Map<string, Table>();
  for (const row of columnRows) {
    let table = tables.get(row.table_name);
    if (!table) {
      table = {
        name: row.table_name,
        kind: row.kind,
        columns: new Map(),
        columnList: [],
        primaryKey: [],
        uniqueKeys: [],
      };
      tables.set(row.table_name, table);
    }
    if (row.name === null) continue;
    const column: Column = {
      name: row.name,
      type: row.type,
      baseType: row.base_type,
      nullable: row.nullable,
      defaultExpr: row.default_expr,
      generated: row.generated,
    };
    table.columns.set(column.name, column);
    table.columnList.push(column);
  }
  for (const constraint of constraints) {
    const table = tables.get(constraint.table_name);
    if (!table || constraint.type === 'f') continue;
    if (constraint.type === 'p') table.primaryKey = constraint.columns;
    table.uniqueKeys.push(constraint.columns);
  }
  return tables;
}

/**
 * Relationships as PostgREST derives them from foreign keys: from the referencing table a
 * many-to-one (one-to-one when its columns are unique), and the reverse from the referenced one.
 */
function buildRelationships(
  tables: Map<string, Table>,
  constraints: ConstraintRow[],
): Map<string, Relationship[]> {
  const relationships = new Map<string, Relationship[]>();
  const add = (relationship: Relationship) => {
    const list = relationships.get(relationship.table) ?? [];
    list.push(relationship);
    relationships.set(relationship.table, list);
  };
  for (const constraint of constraints) {
    if (constraint.type !== 'f' || !constraint.ref_table) continue;
    const fk: ForeignKey = {
      constraint: constraint.name,
      table: constraint.table_name,
      columns: constraint.columns,
      refTable: constraint.ref_table,
      refColumns: constraint.ref_columns,
    };
    const source = tables.get(fk.table);
    if (!source || !tables.has(fk.refTable)) continue;
    const oneToOne = source.uniqueKeys.some((key) => sameSet(key, fk.columns));
    const isSelf = fk.table === fk.refTable;
    const pairs = fk.columns.map((column, i): [string, string] => [column, fk.refColumns[i]!]);
    add({
      cardinality: oneToOne ? 'one-to-one' : 'many-to-one',
      constraint: fk.constraint,
      table: fk.table,
      foreignTable: fk.refTable,
      columns: pairs,
      isSelf,
    });
    add({
      cardinality: oneToOne ? 'one-to-one' : 'one-to-many',
      constraint: fk.constraint,
      table: fk.refTable,
      foreignTable: fk.table,
      columns: pairs.map(([column, refColumn]): [string, string] => [refColumn, column]),
      isSelf,
    });
  }
  return relationships;
}

const VOLATILITY = { i: 'immutable', s: 'stable', v: 'volatile' } as const;

function buildRoutine(row: RoutineRow, compositeColumns: Map<string, Column[]>): Routine {
  const modes = row.arg_modes.length > 0 ? row.arg_modes : row.arg_types.map(() => 'i');
  const params: RoutineParam[] = [];
  const outColumns: Column[] = [];
  let inputIndex = 0;
  modes.forEach((mode, i) => {
    const name = row.arg_names[i] ?? '';
    const type = row.arg_types[i] ?? 'unknown';
    if (mode === 'i' || mode === 'b' || mode === 'v') {
      params.push({
        name,
        type,
        required: inputIndex < row.nargs - row.nargdefaults,
        variadic: mode === 'v',
      });
      inputIndex += 1;
    }
    if (mode === 'o' || mode === 'b' || mode === 't') {
      outColumns.push({
        name,
        type,
        baseType: type,
        nullable: true,
        defaultExpr: null,
        generated: false,
      });
    }
  });
  let returnKind: Routine['returnKind'] = 'scalar';
  let returnColumns: Column[] = [];
  if (outColumns.length > 0) {
    returnKind = 'composite';
    returnColumns = outColumns;
  } else if (row.ret_typtype === 'c') {
    returnKind = 'composite';
    returnColumns = compositeColumns.get(row.ret_relid) ?? [];
  } else if (row.ret_typname === 'void') {
    returnKind = 'void';
  } else if (row.ret_typname === 'record') {
    returnKind = 'composite';
  }
  return {
    name: row.name,
    params,
    returnKind,
    returnsSet: row.returns_set,
    returnType: row.ret_type,
    returnColumns,
    returnTable: returnKind === 'composite' && outColumns.length === 0 ? row.ret_table : null,
    volatility: VOLATILITY[row.volatility as keyof typeof VOLATILITY] ?? 'volatile',
  };
}

interface CompositeColumnRow {
  relid: string;
  name: string;
  type: string;
  base_type: string;
}

/**
 * The rows of the catalog queries the schema cache is built from: plain data, so that a cache
 * read from one database can be handed to a copy of it (see `SchemaSeed` in schema-cache.ts).
 */
export interface SchemaRows {
  fingerprint: string;
  columns: ColumnRow[];
  constraints: ConstraintRow[];
  routines: RoutineRow[];
  types: string[];
  readSources: ReadSource[];
  compositeColumns: CompositeColumnRow[];
}

/** Reads the rows the schema cache of `schema` is built from. */
export async function readSchemaRows(db: Queryable, schema: string): Promise<SchemaRows> {
  const fingerprint = await db.query<{ fingerprint: string }>(FINGERPRINT_SQL, [schema]);
  const columns = await db.query<ColumnRow>(COLUMNS_SQL, [schema]);
  const constraints = await db.query<ConstraintRow>(CONSTRAINTS_SQL, [schema]);
  const routines = await db.query<RoutineRow>(ROUTINES_SQL, [schema]);
  const types = await db.query<{ name: string }>(TYPES_SQL, [schema]);
  const readSources = await db.query<ReadSource>(UNREPEATABLE_SOURCES_SQL);
  const relids = [
    ...new Set(routines.rows.filter((r) => r.ret_typtype === 'c').map((r) => r.ret_relid)),
  ];
  const compositeColumns =
    relids.length > 0
      ? (await db.query<CompositeColumnRow>(COMPOSITE_COLUMNS_SQL, [`{${relids.join(',')}}`])).rows
      : [];
  return {
    fingerprint: fingerprint.rows[0]?.fingerprint ?? '',
    columns: columns.rows,
    constraints: constraints.rows,
    routines: routines.rows,
    types: types.rows.map((row) => row.name),
    readSources: readSources.rows,
    compositeColumns,
  };
}

/** Builds the schema cache of `schema` from its catalog rows. */
export function buildSchemaCache(schema: string, rows: SchemaRows): SchemaCache {
  const compositeColumns = new Map<string, Column[]>();
  for (const row of rows.compositeColumns) {
    const list = compositeColumns.get(row.relid) ?? [];
    list.push({
      name: row.name,
      type: row.type,
      baseType: row.base_type,
      nullable: true,
      defaultExpr: null,
      generated: false,
    });
    compositeColumns.set(row.relid, list);
  }
  const tables = buildTables(rows.columns, rows.constraints);
  const routineMap = new Map<string, Routine[]>();
  for (const row of rows.routines) {
    const list = routineMap.get(row.name) ?? [];
    list.push(buildRoutine(row, compositeColumns));
    routineMap.set(row.name, list);
  }
  return {
    schema,
    tables,
    relationships: buildRelationships(tables, rows.constraints),
    routines: routineMap,
    typeNames: new Set(rows.types),
    fingerprint: rows.fingerprint,
    unrepeatable: unrepeatableRelations(rows.readSources),
  };
}

/** Reads the schema cache of `schema` from the catalog. */
export async function loadSchemaCache(db: Queryable, schema: string): Promise<SchemaCache> {
  return buildSchemaCache(schema, await readSchemaRows(db, schema));
}
