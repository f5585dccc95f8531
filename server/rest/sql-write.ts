import type { ReadNode, ResolvedLogic } from './plan-types.ts';
import type { BodySource } from './sql-body.ts';
import { bodyFromSql } from './sql-body.ts';
import { logicSql } from './sql-filter.ts';
import type { Table } from './schema-types.ts';
import type { Params } from './sql-util.ts';
import { ident, qualified } from './sql-util.ts';

/** The CTE holding the rows a mutation returned; the representation is read from it. */
export const MUTATION_CTE = 'pgrst_mutation';

// Counts inserted rows of an upsert, as PostgREST does: +1 for every row offered to the INSERT,
// -1 for every one that became an UPDATE; read back after the statement for 201 versus 200.
const COUNT_OFFERED = `set_config('pgrst.inserted', (coalesce(nullif(current_setting('pgrst.inserted', true), '')::int, 0) + 1)::text, true) <> '0'`;
const COUNT_UPDATED = `set_config('pgrst.inserted', (coalesce(nullif(current_setting('pgrst.inserted', true), '')::int, 0) - 1)::text, true) <> '-1'`;
export const INSERTED_SQL = `nullif(current_setting('pgrst.inserted', true), '')::int`;

/** The columns the representation needs, or `*`; none when nothing is returned. */
export function returningColumns(root: ReadNode, extra: string[]): string[] | '*' {
  if (root.items.some((item) => item.kind === 'star')) return '*';
  const columns = new Set<string>(extra);
  for (const item of root.items) if (item.kind === 'field') columns.add(item.column.name);
  for (const embed of root.embeds) {
    for (const [parentColumn] of embed.embed!.rel.columns) columns.add(parentColumn);
  }
  return [...columns];
}

function returningSql(table: Table, schema: string, returning: string[] | '*' | null): string {
  const target = qualified(schema, table.name);
  if (returning === null || (Array.isArray(returning) && returning.length === 0))
    return ' returning 1';
  if (returning === '*') return ` returning ${target}.*`;
  return ` returning ${returning.map((name) => `${target}.${ident(name)}`).join(', ')}`;
}

export interface InsertPlan {
  schema: string;
  table: Table;
  body: BodySource;
  onConflict?: { columns: string[]; resolution: 'merge-duplicates' | 'ignore-duplicates' };
  returning: string[] | '*' | null;
}

/** `INSERT ... SELECT` from the body, with `ON CONFLICT` for upserts. */
export function insertSql(plan: InsertPlan, params: Params): string {
  const target = qualified(plan.schema, plan.table.name);
  const names = plan.body.columns.map((column) => ident(column.name));
  const selected = plan.body.columns.map((column) => `pgrst_body.${ident(column.name)}`);
  const merge =
    plan.onConflict?.resolution === 'merge-duplicates' && plan.onConflict.columns.length > 0;
  let sql = `insert into ${target}${names.length > 0 ? ` (${names.join(', ')})` : ''}`;
  sql += ` select ${selected.join(', ')} from ${bodyFromSql(plan.body, params)}`;
  if (merge) sql += ` where ${COUNT_OFFERED}`;
  if (plan.onConflict && plan.onConflict.columns.length > 0) {
    sql += ` on conflict (${plan.onConflict.columns.map(ident).join(', ')})`;
    if (plan.onConflict.resolution === 'ignore-duplicates' || names.length === 0) {
      sql += ' do nothing';
    } else {
      const sets = names.map((name) => `${name} = excluded.${name}`).join(', ');
      sql += ` do update set ${sets} where ${COUNT_UPDATED}`;
    }
  }
  return sql + returningSql(plan.table, plan.schema, plan.returning);
}

export interface UpdatePlan {
  schema: string;
  table: Table;
  body: BodySource;
  where: ResolvedLogic[];
  returning: string[] | '*' | null;
}

/** `UPDATE ... SET col = body.col FROM body WHERE filters`; an empty body updates nothing. */
export function updateSql(plan: UpdatePlan, params: Params): string {
  const target = qualified(plan.schema, plan.table.name);
  if (plan.body.columns.length === 0) {
    // Nothing to set: select no rows, with the returned columns so `select=` still works.
    const cols =
      plan.returning === '*'
        ? `${target}.*`
        : plan.returning && plan.returning.length > 0
          ? plan.returning.map((name) => `${target}.${ident(name)}`).join(', ')
          : '1';
    return `select ${cols} from ${target} where false`;
  }
  const sets = plan.body.columns
    .map((column) => `${ident(column.name)} = pgrst_body.${ident(column.name)}`)
    .join(', ');
  let sql = `update ${target} set ${sets} from ${bodyFromSql(plan.body, params, true)}`;
  const conditions = plan.where.map((logic) => logicSql(logic, target, params));
  if (conditions.length > 0) sql += ` where ${conditions.join(' and ')}`;
  return sql + returningSql(plan.table, plan.schema, plan.returning);
}

export interface DeletePlan {
  schema: string;
  table: Table;
  where: ResolvedLogic[];
  returning: string[] | '*' | null;
}

export function deleteSql(plan: DeletePlan, params: Params): string {
  const target = qualified(plan.schema, plan.table.name);
  let sql = `delete from ${target}`;
  const conditions = plan.where.map((logic) => logicSql(logic, target, params));
  if (conditions.length > 0) sql += ` where ${conditions.join(' and ')}`;
  return sql + returningSql(plan.table, plan.schema, plan.returning);
}
