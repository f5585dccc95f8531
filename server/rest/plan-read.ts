import { castTypeSql } from './casts.ts';
import { RestError, SchemaMissError, columnNotFound } from './errors.ts';
import { closestName } from './similar-name.ts';
import type { OutputItem, ReadNode, ResolvedLogic, ResolvedOrder } from './plan-types.ts';
import type { FieldRef, LogicTree, OrderTerm, ParsedQuery, SelectItem } from './query-types.ts';
import { findRelationship } from './relationships.ts';
import type { Column, SchemaCache, Table } from './schema-types.ts';
import { ident, qualified } from './sql-util.ts';

/** Where the root of a read comes from. */
export interface RootSource {
  /** Name used for relationship lookups (a table name) and error messages. */
  name: string;
  table: Table;
  from: string;
  qualifier: string;
}

export interface PlanOptions {
  /**
   * Root-level filters belong to the mutation (UPDATE/DELETE ... WHERE), not to the read of
   * its result; embedded filters still apply to the representation.
   */
  skipRootFilters?: boolean;
}

class Planner {
  private aliasCount = 0;

  constructor(private readonly cache: SchemaCache) {}

  nextAlias(): string {
    this.aliasCount += 1;
    return `pgrst_${this.aliasCount}`;
  }

  column(table: Table, name: string): Column {
    const column = table.columns.get(name);
    if (!column) throw columnNotFound(table.name, name);
    return column;
  }

  outputItem(table: Table, item: Extract<SelectItem, { kind: 'field' }>): OutputItem {
    const column = this.column(table, item.field.name);
    const path = item.field.jsonPath;
    let outputName = item.alias;
    if (outputName === undefined && path.length === 0) outputName = column.name;
    else if (outputName === undefined) {
      const lastKey = [...path].reverse().find((step) => !step.index);
      outputName =
        path.length > 0 && !path[path.length - 1]!.index
          ? path[path.length - 1]!.key
          : (lastKey?.key ?? column.name);
    }
    const out: OutputItem = { kind: 'field', column, jsonPath: path, outputName };
    if (item.cast !== undefined) out.castSql = castTypeSql(this.cache, item.cast);
    return out;
  }

  /** Builds the node for `items` read from `table`, recursing into embeds. */
  node(
    base: Omit<ReadNode, 'items' | 'embeds' | 'where' | 'order' | 'range'>,
    items: SelectItem[],
    depth = 0,
  ): ReadNode {
    const node: ReadNode = { ...base, items: [], embeds: [], where: [], order: [], range: {} };
    const embedNames = new Set<string>();
    for (const item of items) {
      if (item.kind === 'star') node.items.push({ kind: 'star' });
      else if (item.kind === 'field') node.items.push(this.outputItem(node.table, item));
      else {
        // Two embeds under one name would be two equal keys in one JSON object, and a client
        // keeps only the last. PostgREST's SQL fails on its duplicate join alias; same answer.
        const name = item.alias ?? item.relation;
        if (embedNames.has(name)) {
          throw new RestError(
            400,
            '42712',
            `table name "${node.table.name}_${name}_${depth + 1}" specified more than once`,
          );
        }
        embedNames.add(name);
        node.embeds.push(this.embed(node, item, depth + 1));
      }
    }
    return node;
  }

  embed(parent: ReadNode, item: Extract<SelectItem, { kind: 'embed' }>, depth: number): ReadNode {
    const rel = findRelationship(this.cache, parent.table.name, item.relation, item.hint);
    const table = this.cache.tables.get(rel.foreignTable);
    if (!table) throw columnNotFound(parent.table.name, item.relation);
    const toOne = rel.cardinality !== 'one-to-many';
    if (item.spread && !toOne) {
      throw new RestError(
        400,
        'PGRST119',
        `A spread operation on '${item.relation}' is not possible`,
        {
          details: `'${parent.table.name}' and '${item.relation}' do not form a many-to-one or one-to-one relationship`,
        },
      );
    }
    const alias = this.nextAlias();
    const node = this.node(
      {
        name: item.relation,
        ...(item.alias !== undefined ? { alias: item.alias } : {}),
        table,
        from: `${qualified(this.cache.schema, table.name)} as ${ident(alias)}`,
        qualifier: ident(alias),
        parentQualifier: parent.qualifier,
      },
      item.children,
      depth,
    );
    node.embed = {
      rel,
      joinType: item.joinType ?? 'left',
      spread: item.spread,
      toOne,
      outputName: item.alias ?? item.relation,
      lateral: ident(`${alias}_agg`),
      hasOutput: item.children.length > 0,
    };
    return node;
  }

  /** The node an embed path (`posts.comments`) addresses, by relation name or alias. */
  find(root: ReadNode, path: string[]): ReadNode {
    let node = root;
    for (const name of path) {
      const next = node.embeds.find((embed) => embed.name === name || embed.alias === name);
      if (!next) {
        throw new RestError(
          400,
          'PGRST108',
          `'${name}' is not an embedded resource in this request`,
          {
            hint: `Verify that '${name}' is included in the 'select' query parameter.`,
          },
        );
      }
      node = next;
    }
    return node;
  }

  filterColumn(node: ReadNode, ref: FieldRef): Column {
    return this.column(node.table, ref.name);
  }

  logic(node: ReadNode, tree: LogicTree): ResolvedLogic {
    if (tree.kind === 'group') {
      return {
        kind: 'group',
        negate: tree.negate,
        operator: tree.operator,
        children: tree.children.map((child) => this.logic(node, child)),
      };
    }
    const { filter } = tree;
    const embed =
      filter.field.jsonPath.length === 0 && !node.table.columns.has(filter.field.name)
        ? node.embeds.find((e) => e.name === filter.field.name || e.alias === filter.field.name)
        : undefined;
    if (embed) {
      if (filter.operation.kind === 'is' && filter.operation.value === 'null') {
        return { kind: 'embed-null', negate: filter.negate, embed };
      }
      throw new RestError(
        400,
        'PGRST120',
        `Bad operator on the '${filter.field.name}' embedded resource`,
        {
          details: 'Only is null or not is null filters are allowed on embedded resources',
        },
      );
    }
    return { kind: 'filter', filter, column: this.filterColumn(node, filter.field) };
  }

  order(node: ReadNode, terms: OrderTerm[]): ResolvedOrder[] {
    return terms.map((term) => {
      if (term.relation === undefined) {
        const order: ResolvedOrder = {
          qualifier: node.qualifier,
          column: this.column(node.table, term.field.name),
          jsonPath: term.field.jsonPath,
        };
        if (term.direction) order.direction = term.direction;
        if (term.nulls) order.nulls = term.nulls;
        return order;
      }
      const embed = node.embeds.find((e) => e.name === term.relation || e.alias === term.relation);
      if (!embed?.embed) {
        throw new RestError(
          400,
          'PGRST108',
          `'${term.relation}' is not an embedded resource in this request`,
          {
            hint: `Verify that '${term.relation}' is included in the 'select' query parameter.`,
          },
        );
      }
      if (!embed.embed.toOne) {
        throw new RestError(
          400,
          'PGRST118',
          `A related order on '${term.relation}' is not possible`,
          {
            details: `'${node.table.name}' and '${term.relation}' do not form a many-to-one or one-to-one relationship`,
          },
        );
      }
      const column = this.column(embed.table, term.field.name);
      const selected = embed.items.some(
        (item) =>
          item.kind === 'star' || (item.kind === 'field' && item.outputName === column.name),
      );
      if (!selected) {
        throw new RestError(400, 'PGRST100', `Cannot order by '${term.relation}(${column.name})'`, {
          details: `'${column.name}' must be selected in the '${term.relation}' embed to order by it.`,
        });
      }
      const order: ResolvedOrder = {
        qualifier: embed.embed.lateral,
        column,
        jsonPath: term.field.jsonPath,
      };
      if (term.direction) order.direction = term.direction;
      if (term.nulls) order.nulls = term.nulls;
      return order;
    });
  }
}

/**
 * Checks a parsed query against the schema cache and turns it into a tree of read nodes: every
 * column, relationship and cast is resolved here, so SQL generation only quotes known names.
 */
export function planRead(
  cache: SchemaCache,
  root: RootSource,
  query: ParsedQuery,
  options: PlanOptions = {},
): ReadNode {
  const planner = new Planner(cache);
  const tree = planner.node(
    { name: root.name, table: root.table, from: root.from, qualifier: root.qualifier },
    query.select,
  );
  for (const { path, value } of query.filters) {
    if (path.length === 0 && options.skipRootFilters) continue;
    const node = planner.find(tree, path);
    node.where.push(planner.logic(node, { kind: 'filter', filter: value }));
  }
  for (const { path, value } of query.logic) {
    if (path.length === 0 && options.skipRootFilters) continue;
    const node = planner.find(tree, path);
    node.where.push(planner.logic(node, value));
  }
  for (const { path, value } of query.order) {
    const node = planner.find(tree, path);
    node.order = planner.order(node, value);
  }
  for (const { path, value } of query.ranges) {
    planner.find(tree, path).range = value;
  }
  return tree;
}

/** Root filters and logic trees of a query, resolved against `table` (for UPDATE/DELETE). */
export function planRootFilters(
  cache: SchemaCache,
  table: Table,
  query: ParsedQuery,
  qualifier: string,
): ResolvedLogic[] {
  const planner = new Planner(cache);
  const node = planner.node({ name: table.name, table, from: qualifier, qualifier }, []);
  const where: ResolvedLogic[] = [];
  for (const { path, value } of query.filters) {
    if (path.length === 0) where.push(planner.logic(node, { kind: 'filter', filter: value }));
  }
  for (const { path, value } of query.logic) {
    if (path.length === 0) where.push(planner.logic(node, value));
  }
  return where;
}

/** The exposed table or view `name`; unknown is 404 PGRST205 (with a close name as hint). */
export function findTable(cache: SchemaCache, name: string): Table {
  const table = cache.tables.get(name);
  if (table) return table;
  const similar = closestName(name, [...cache.tables.keys()]);
  throw new SchemaMissError(
    404,
    'PGRST205',
    `Could not find the table '${cache.schema}.${name}' in the schema cache`,
    {
      hint: similar ? `Perhaps you meant the table '${cache.schema}.${similar}'` : null,
    },
  );
}
