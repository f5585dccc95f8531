import { RestError } from './errors.ts';
import type { SchemaCache } from './schema-types.ts';

/**
 * SQL-standard type names that are not `pg_type` names (`integer` is `int4` in the catalog).
 * These are written into the SQL as they are: they come from this list, never from the request.
 */
const STANDARD_TYPES = new Set([
  'integer',
  'int',
  'smallint',
  'bigint',
  'real',
  'double precision',
  'float',
  'decimal',
  'numeric',
  'boolean',
  'character',
  'character varying',
  'char',
  'varchar',
  'text',
  'json',
  'jsonb',
  'uuid',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'timestamp with time zone',
  'timestamp without time zone',
  'time with time zone',
  'time without time zone',
  'interval',
  'bytea',
]);

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The SQL for a cast requested in `select` (`col::type`). The name must be a standard SQL type
 * name or a type of `pg_catalog` or the exposed schema; catalog names are written quoted, so
 * nothing from the request reaches the SQL unvalidated. Anything else is a 400.
 */
export function castTypeSql(cache: SchemaCache, requested: string): string {
  const name = requested.trim().replace(/\s+/g, ' ').toLowerCase();
  if (STANDARD_TYPES.has(name)) return name;
  if (cache.typeNames.has(requested.trim())) return quoteIdent(requested.trim());
  throw new RestError(400, '42704', `type "${requested}" does not exist`, {
    hint: 'Casts may name a standard SQL type or a type of the exposed schema.',
  });
}
