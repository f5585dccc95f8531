/**
 * One neutral description of the schema the browser sees (tables, views, functions, composite
 * types), built twice: from the TypeScript declarations in `src/lib/database.types.ts` (with the
 * compiler's type checker) and from the live database's catalogue. The schema test compares the
 * two descriptions.
 */
import ts from 'typescript';
import type { Queryable } from '../../server/db/database.ts';

/** `string`, `number`, `boolean`, `json`, or one of those followed by `[]`. */
export type TypeFamily = string;

export interface ColumnShape {
  type: TypeFamily;
  nullable: boolean;
  /** The literal values when the column is limited to a fixed list. */
  values?: string[];
}

export interface TableColumnShape extends ColumnShape {
  /** Whether an insert must give the column, may give it, or cannot (generated columns). */
  insert: 'required' | 'optional' | 'never';
}

export interface RelationshipShape {
  foreignKeyName: string;
  columns: string[];
  isOneToOne: boolean;
  referencedRelation: string;
  referencedColumns: string[];
}

export interface FunctionShape {
  args: { name: string; type: TypeFamily }[];
  /** `void`, a family, or a record of fields. */
  returns: TypeFamily | Record<string, ColumnShape>;
  /** A set-returning function (`returns setof`), which supabase-js types as an array of rows. */
  setof?: true;
}

export interface SchemaShape {
  tables: Record<
    string,
    { columns: Record<string, TableColumnShape>; relationships: RelationshipShape[] }
  >;
  views: Record<string, Record<string, ColumnShape>>;
  functions: Record<string, FunctionShape>;
  compositeTypes: Record<string, Record<string, ColumnShape>>;
}

const sortKeys = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

const byName = (a: RelationshipShape, b: RelationshipShape) =>
  a.foreignKeyName.localeCompare(b.foreignKeyName);

// ---------------------------------------------------------------------------------------------
// From the TypeScript declarations
// ---------------------------------------------------------------------------------------------

class TypeReader {
  constructor(private readonly checker: ts.TypeChecker) {}

  property(type: ts.Type, name: string): ts.Symbol {
    const symbol = this.checker.getPropertyOfType(type, name);
    if (!symbol) throw new Error(`type ${this.checker.typeToString(type)} has no ${name}`);
    return symbol;
  }

  typeOf(symbol: ts.Symbol): ts.Type {
    return this.checker.getTypeOfSymbol(symbol);
  }

  /**
   * Whether a property is declared as one of the Json types: an optional one's type is the
   * alias joined with `undefined`, which TypeScript flattens into the alias's parts.
   */
  declaredJson(symbol: ts.Symbol): boolean {
    const declaration = symbol.valueDeclaration;
    return (
      declaration !== undefined &&
      ts.isPropertySignature(declaration) &&
      /^Json(Object|Array)?$/.test(declaration.type?.getText() ?? '')
    );
  }

  member(type: ts.Type, name: string): ts.Type {
    return this.typeOf(this.property(type, name));
  }

  members(type: ts.Type): [string, ts.Symbol][] {
    return this.checker.getPropertiesOfType(type).map((symbol) => [symbol.getName(), symbol]);
  }

  isOptional(symbol: ts.Symbol): boolean {
    return (symbol.getFlags() & ts.SymbolFlags.Optional) !== 0;
  }

  /** The parts of a union, without the `undefined` that an optional property adds. */
  private parts(type: ts.Type): ts.Type[] {
    const parts = type.isUnion() ? type.types : [type];
    return parts.filter((part) => (part.getFlags() & ts.TypeFlags.Undefined) === 0);
  }

  /** `never`, also as an optional property (where the checker sees `undefined`). */
  isNever(type: ts.Type): boolean {
    return (type.getFlags() & ts.TypeFlags.Never) !== 0 || this.parts(type).length === 0;
  }

  isVoidLike(type: ts.Type): boolean {
    return (type.getFlags() & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) !== 0;
  }

  column(type: ts.Type): ColumnShape {
    const alias = type.aliasSymbol?.getName();
    if (alias === 'Json') return { type: 'json', nullable: true };
    // `jsonb not null` columns, declared by what they always hold.
    if (alias === 'JsonObject' || alias === 'JsonArray') return { type: 'json', nullable: false };
    const parts = this.parts(type);
    const nullable = parts.some((part) => (part.getFlags() & ts.TypeFlags.Null) !== 0);
    const rest = parts.filter((part) => (part.getFlags() & ts.TypeFlags.Null) === 0);
    const families = new Set(rest.map((part) => this.family(part)));
    if (families.size !== 1) {
      throw new Error(`cannot classify ${this.checker.typeToString(type)}`);
    }
    const shape: ColumnShape = { type: [...families][0]!, nullable };
    const literals = rest.filter((part) => part.isStringLiteral());
    if (literals.length === rest.length && literals.length > 0) {
      shape.values = literals.map((part) => (part as ts.StringLiteralType).value).sort();
    }
    return shape;
  }

  private family(type: ts.Type): TypeFamily {
    const flags = type.getFlags();
    if (flags & (ts.TypeFlags.String | ts.TypeFlags.StringLiteral)) return 'string';
    if (flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return 'number';
    if (flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return 'boolean';
    if (this.checker.isArrayType(type)) {
      const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
      return `${this.family(element!)}[]`;
    }
    throw new Error(`cannot classify ${this.checker.typeToString(type)}`);
  }

  isArray(type: ts.Type): boolean {
    return this.checker.isArrayType(type);
  }

  /** The row type of an array of rows (a set-returning function's result), else null. */
  arrayElementObject(type: ts.Type): ts.Type | null {
    if (!this.checker.isArrayType(type)) return null;
    const [element] = this.checker.getTypeArguments(type as ts.TypeReference);
    return element && element.getFlags() & ts.TypeFlags.Object && !this.checker.isArrayType(element)
      ? element
      : null;
  }

  /** The fields of an object type, by family and nullability only (no value lists). */
  record(type: ts.Type): Record<string, ColumnShape> {
    return sortKeys(
      Object.fromEntries(
        this.members(type).map(([name, symbol]) => {
          const { type: family, nullable } = this.column(this.typeOf(symbol));
          return [name, { type: family, nullable }];
        }),
      ),
    );
  }

  literal(type: ts.Type): unknown {
    if (type.isStringLiteral()) return type.value;
    const flags = type.getFlags();
    if (flags & ts.TypeFlags.BooleanLiteral) return this.checker.typeToString(type) === 'true';
    if (this.checker.isTupleType(type)) {
      return this.checker.getTypeArguments(type as ts.TypeReference).map((t) => this.literal(t));
    }
    throw new Error(`not a literal: ${this.checker.typeToString(type)}`);
  }
}

/** Describes the `Database['public']` declared in `file`. */
export function shapeFromTypes(file: string): SchemaShape {
  // Only the ES5 library and no @types packages: the file needs nothing else, and loading them
  // would take seconds.
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    lib: ['lib.es5.d.ts'],
    types: [],
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.ESNext,
    target: ts.ScriptTarget.ES2022,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`cannot read ${file}`);
  const alias = source.statements.find(
    (node): node is ts.TypeAliasDeclaration =>
      ts.isTypeAliasDeclaration(node) && node.name.text === 'Database',
  );
  if (!alias) throw new Error(`${file} declares no type Database`);
  const read = new TypeReader(checker);
  const schema = read.member(checker.getTypeAtLocation(alias.name), 'public');

  const tables: SchemaShape['tables'] = {};
  for (const [name, symbol] of read.members(read.member(schema, 'Tables'))) {
    const table = read.typeOf(symbol);
    const insert = read.member(table, 'Insert');
    const columns: Record<string, TableColumnShape> = {};
    for (const [column, columnSymbol] of read.members(read.member(table, 'Row'))) {
      const insertSymbol = read.property(insert, column);
      const insertKind = read.isNever(read.typeOf(insertSymbol))
        ? 'never'
        : read.isOptional(insertSymbol)
          ? 'optional'
          : 'required';
      columns[column] = { ...read.column(read.typeOf(columnSymbol)), insert: insertKind };
    }
    const relationships = read
      .members(read.member(table, 'Relationships'))
      .filter(([key]) => /^\d+$/.test(key))
      .map(([, relation]) => {
        const type = read.typeOf(relation);
        const field = (key: string) => read.literal(read.member(type, key));
        return {
          foreignKeyName: field('foreignKeyName'),
          columns: field('columns'),
          isOneToOne: field('isOneToOne'),
          referencedRelation: field('referencedRelation'),
          referencedColumns: field('referencedColumns'),
        } as RelationshipShape;
      })
      .sort(byName);
    tables[name] = { columns: sortKeys(columns), relationships };
  }

  const views: SchemaShape['views'] = {};
  for (const [name, symbol] of read.members(read.member(schema, 'Views'))) {
    views[name] = read.record(read.member(read.typeOf(symbol), 'Row'));
  }

  const functions: SchemaShape['functions'] = {};
  for (const [name, symbol] of read.members(read.member(schema, 'Functions'))) {
    const fn = read.typeOf(symbol);
    const argsType = read.member(fn, 'Args');
    const args = read.isNever(argsType)
      ? []
      : read.members(argsType).map(([arg, argSymbol]) => ({
          name: arg,
          type: read.declaredJson(argSymbol) ? 'json' : read.column(read.typeOf(argSymbol)).type,
        }));
    let returnsType = read.member(fn, 'Returns');
    const rowType = read.arrayElementObject(returnsType);
    if (rowType) returnsType = rowType;
    const returns = read.isVoidLike(returnsType)
      ? 'void'
      : returnsType.getFlags() & ts.TypeFlags.Object && !read.isArray(returnsType)
        ? read.record(returnsType)
        : read.column(returnsType).type;
    functions[name] = rowType ? { args, returns, setof: true } : { args, returns };
  }

  const compositeTypes: SchemaShape['compositeTypes'] = {};
  for (const [name, symbol] of read.members(read.member(schema, 'CompositeTypes'))) {
    compositeTypes[name] = read.record(read.typeOf(symbol));
  }

  return {
    tables: sortKeys(tables),
    views: sortKeys(views),
    functions: sortKeys(functions),
    compositeTypes: sortKeys(compositeTypes),
  };
}

// ---------------------------------------------------------------------------------------------
// From the live database
// ---------------------------------------------------------------------------------------------

/** The type family supabase-js sees for a Postgres type (as `supabase gen types` maps them). */
function familyOf(typeName: string): TypeFamily {
  if (typeName.startsWith('_')) return `${familyOf(typeName.slice(1))}[]`;
  if (['int2', 'int4', 'int8', 'float4', 'float8', 'numeric'].includes(typeName)) return 'number';
  if (typeName === 'bool') return 'boolean';
  if (typeName === 'json' || typeName === 'jsonb') return 'json';
  if (
    ['text', 'varchar', 'bpchar', 'uuid', 'date', 'timestamptz', 'timestamp', 'time'].includes(
      typeName,
    ) ||
    // A search vector comes back as its text form.
    typeName === 'tsvector'
  ) {
    return 'string';
  }
  throw new Error(`no type family for Postgres type ${typeName}`);
}

/**
 * The values of a single-column check constraint that limits the column to a list:
 * `CHECK ((col = ANY (ARRAY['a'::text, …])))` or, for one value, `CHECK ((col = 'a'::text))`.
 */
function listedValues(definition: string, column: string): string[] | undefined {
  const quoted = `\\(?"?${column}"?\\)?`;
  const list = new RegExp(`^CHECK \\(\\(${quoted} = ANY \\(ARRAY\\[(.*)\\]\\)\\)\\)$`).exec(
    definition,
  );
  const single = new RegExp(`^CHECK \\(\\(${quoted} = ('(?:[^']|'')*'::text)\\)\\)$`).exec(
    definition,
  );
  const body = list?.[1] ?? single?.[1];
  if (!body) return undefined;
  return [...body.matchAll(/'((?:[^']|'')*)'::text/g)]
    .map((m) => m[1]!.replaceAll("''", "'"))
    .sort();
}

interface ColumnRow {
  relation: string;
  kind: string;
  column: string;
  type: string;
  not_null: boolean;
  has_default: boolean;
  generated: string;
}

/** Describes the schema `public` of the database behind `db`. */
export async function shapeFromDatabase(db: Queryable): Promise<SchemaShape> {
  const { rows: columnRows } = await db.query<ColumnRow>(`
    select c.relname as relation, c.relkind::text as kind, a.attname as column,
           t.typname as type, a.attnotnull as not_null, a.atthasdef as has_default,
           a.attgenerated::text as generated
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    join pg_type t on t.oid = a.atttypid
    where n.nspname = 'public' and c.relkind in ('r', 'v', 'c')
    order by c.relname, a.attnum`);
  const { rows: checks } = await db.query<{
    relation: string;
    column: string;
    definition: string;
  }>(`
    select c.relname as relation, a.attname as column, pg_get_constraintdef(k.oid) as definition
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum = k.conkey[1]
    where n.nspname = 'public' and k.contype = 'c' and cardinality(k.conkey) = 1`);
  const { rows: foreignKeys } = await db.query<RelationshipShape & { relation: string }>(`
    select c.relname as relation, k.conname as "foreignKeyName",
           array(select a.attname::text from unnest(k.conkey) with ordinality u(n, i)
                 join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.n order by u.i)
             as columns,
           exists (select 1 from pg_constraint u
                   where u.conrelid = k.conrelid and u.contype in ('p', 'u')
                     and u.conkey::int2[] <@ k.conkey::int2[] and k.conkey::int2[] <@ u.conkey::int2[])
             as "isOneToOne",
           r.relname as "referencedRelation",
           array(select a.attname::text from unnest(k.confkey) with ordinality u(n, i)
                 join pg_attribute a on a.attrelid = k.confrelid and a.attnum = u.n order by u.i)
             as "referencedColumns"
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_class r on r.oid = k.confrelid
    join pg_namespace rn on rn.oid = r.relnamespace
    where k.contype = 'f' and n.nspname = 'public' and rn.nspname = 'public'`);
  const { rows: functionRows } = await db.query<{
    name: string;
    arg_names: string[] | null;
    arg_types: string[];
    returns: string;
    returns_kind: string;
    returns_relation: string | null;
    setof: boolean;
    table_columns: { name: string; type: string }[];
  }>(`
    select p.proname as name, p.proargnames as arg_names,
           array(select t.typname::text from unnest(p.proargtypes) with ordinality u(oid, i)
                 join pg_type t on t.oid = u.oid order by u.i) as arg_types,
           -- The columns of \`returns table (…)\`: the arguments of mode 't'.
           coalesce((select json_agg(json_build_object('name', p.proargnames[u.i], 'type', t.typname) order by u.i)
                     from unnest(p.proallargtypes, p.proargmodes) with ordinality u(oid, mode, i)
                     join pg_type t on t.oid = u.oid where u.mode = 't'), '[]') as table_columns,
           rt.typname as returns, rt.typtype::text as returns_kind,
           rc.relname as returns_relation, p.proretset as setof
    from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    join pg_type rt on rt.oid = p.prorettype
    left join pg_class rc on rc.oid = rt.typrelid
    where n.nspname = 'public' and p.prokind = 'f'`);

  const valuesOf = new Map(
    checks.flatMap(({ relation, column, definition }) => {
      const values = listedValues(definition, column);
      return values ? [[`${relation}.${column}`, values] as const] : [];
    }),
  );
  const column = (row: ColumnRow): ColumnShape => {
    const shape: ColumnShape = { type: familyOf(row.type), nullable: !row.not_null };
    const values = valuesOf.get(`${row.relation}.${row.column}`);
    if (values) shape.values = values;
    return shape;
  };
  // As `gen types` does: view columns and composite type fields are always nullable.
  const loose = (row: ColumnRow): ColumnShape => ({ type: familyOf(row.type), nullable: true });

  const tables: SchemaShape['tables'] = {};
  const views: SchemaShape['views'] = {};
  const records: Record<string, Record<string, ColumnShape>> = {};
  for (const row of columnRows) {
    if (row.kind === 'r') {
      const table = (tables[row.relation] ??= { columns: {}, relationships: [] });
      table.columns[row.column] = {
        ...column(row),
        insert: row.generated
          ? 'never'
          : row.not_null && !row.has_default
            ? 'required'
            : 'optional',
      };
    } else if (row.kind === 'v') {
      (views[row.relation] ??= {})[row.column] = loose(row);
    } else {
      (records[row.relation] ??= {})[row.column] = loose(row);
    }
  }
  for (const { relation, ...relationship } of foreignKeys) {
    tables[relation]?.relationships.push(relationship);
  }
  for (const table of Object.values(tables)) {
    table.columns = sortKeys(table.columns);
    table.relationships.sort(byName);
  }

  // Rows of a table come back as the table's row type, with its own nullability.
  const rowOf = (relation: string) =>
    sortKeys(
      Object.fromEntries(
        Object.entries(tables[relation]!.columns).map(([name, { type, nullable }]) => [
          name,
          { type, nullable },
        ]),
      ),
    );
  const functions: SchemaShape['functions'] = {};
  for (const fn of functionRows) {
    const args = fn.arg_types.map((type, i) => ({
      name: fn.arg_names?.[i] ?? `$${i + 1}`,
      type: familyOf(type),
    }));
    let returns: FunctionShape['returns'];
    if (fn.returns === 'void') returns = 'void';
    else if (fn.returns_kind === 'c' && fn.returns_relation && tables[fn.returns_relation]) {
      returns = rowOf(fn.returns_relation);
    } else if (fn.returns_kind === 'c' && fn.returns_relation) {
      returns = sortKeys(records[fn.returns_relation]!);
    } else if (fn.table_columns.length > 0) {
      // As `gen types` does, the columns of a returned table are nullable.
      returns = sortKeys(
        Object.fromEntries(
          fn.table_columns.map(({ name, type }) => [
            name,
            { type: familyOf(type), nullable: true },
          ]),
        ),
      );
    } else returns = familyOf(fn.returns);
    functions[fn.name] = fn.setof ? { args, returns, setof: true } : { args, returns };
  }

  return {
    tables: sortKeys(tables),
    views: sortKeys(Object.fromEntries(Object.entries(views).map(([k, v]) => [k, sortKeys(v)]))),
    functions: sortKeys(functions),
    compositeTypes: sortKeys(
      Object.fromEntries(Object.entries(records).map(([k, v]) => [k, sortKeys(v)])),
    ),
  };
}
