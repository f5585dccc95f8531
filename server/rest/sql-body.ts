import type { Column } from './schema-types.ts';
import type { Params } from './sql-util.ts';
import { ident } from './sql-util.ts';

export interface BodySource {
  /** The raw JSON text of the request body, bound as one parameter. */
  json: string;
  isArray: boolean;
  columns: Column[];
  /** `Prefer: missing=default`: absent keys take the column default instead of NULL. */
  applyDefaults: boolean;
}

/**
 * The FROM items that turn the JSON body into typed rows named `pgrst_body`, as PostgREST does:
 * `json_to_record(set)` with each column's own type, so Postgres converts every value. The body
 * is sent as it came (never re-serialised), so big numbers keep their precision.
 */
export function bodyFromSql(body: BodySource, params: Params, limitOne = false): string {
  const placeholder = params.add(body.json);
  const { columns } = body;
  const defaults = body.applyDefaults
    ? columns.filter((column) => column.defaultExpr !== null && !column.generated)
    : [];
  let source = 'pgrst_payload.json_data';
  let items = `(select ${placeholder}::${defaults.length > 0 ? 'jsonb' : 'json'} as json_data) pgrst_payload`;
  const fn = defaults.length > 0 ? 'jsonb' : 'json';
  if (defaults.length > 0) {
    // Column defaults come from the catalog (pg_get_expr), never from the request.
    const pairs = defaults
      .map((column) => `${params.add(column.name)}::text, ${column.defaultExpr}`)
      .join(', ');
    const withDefaults = (value: string) => `jsonb_build_object(${pairs}) || ${value}`;
    items += body.isArray
      ? `, lateral (select coalesce(jsonb_agg(${withDefaults('elem')}), '[]') as val from jsonb_array_elements(pgrst_payload.json_data) elem) pgrst_json_defs`
      : `, lateral (select ${withDefaults('pgrst_payload.json_data')} as val) pgrst_json_defs`;
    source = 'pgrst_json_defs.val';
  }
  let rows: string;
  if (columns.length === 0) {
    rows = body.isArray
      ? `select from ${fn}_array_elements(${source}) _`
      : `select from (values (1)) _`;
  } else {
    const names = columns.map((column) => ident(column.name)).join(', ');
    const typed = columns.map((column) => `${ident(column.name)} ${column.type}`).join(', ');
    const recordFn = body.isArray ? `${fn}_to_recordset` : `${fn}_to_record`;
    rows = `select ${names} from ${recordFn}(${source}) as _(${typed})${limitOne ? ' limit 1' : ''}`;
  }
  return `${items}, lateral (${rows}) pgrst_body`;
}
