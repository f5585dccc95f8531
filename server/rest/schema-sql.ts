/** The catalog queries the schema cache is read with (see schema-load.ts). */

// Every query takes the schema name as $1 and runs as the connecting superuser: the cache lists
// everything, and privileges and row-level security are left to Postgres when requests run.

/**
 * A cheap summary of the catalog rows the cache is built from. Any DDL in the schema (a new
 * table, column, constraint, function or type; a rename; a drop) changes a row count or a row
 * version (`xmin`), so a different fingerprint means the cache is stale.
 */
export const FINGERPRINT_SQL = `
  with ns as (select oid from pg_namespace where nspname = $1)
  select concat_ws('/',
    (select count(*) || '.' || coalesce(sum(xmin::text::int8), 0) from pg_class
       where relnamespace = (select oid from ns)),
    (select count(*) || '.' || coalesce(sum(a.xmin::text::int8), 0)
       from pg_attribute a join pg_class c on c.oid = a.attrelid
       where c.relnamespace = (select oid from ns)),
    (select count(*) || '.' || coalesce(sum(xmin::text::int8), 0) from pg_constraint
       where connamespace = (select oid from ns)),
    (select count(*) || '.' || coalesce(sum(xmin::text::int8), 0) from pg_proc
       where pronamespace = (select oid from ns)),
    (select count(*) || '.' || coalesce(sum(xmin::text::int8), 0) from pg_type
       where typnamespace = (select oid from ns))
  ) as fingerprint`;

/**
 * Every catalog the queries below read (names printed by `format_type`, `pg_get_expr` and
 * `pg_get_viewdef` included), each as its row count and the sum of its rows' `xmin`, and the
 * settings that change how they print: equal on a copy of a database exactly when the copy's
 * catalog is the original's. A row added or replaced since has an `xmin` newer than every row it
 * could stand in for, so no set of changes keeps both count and sum (in-place updates of
 * statistics leave both, and are nothing the cache reads). Not a fingerprint to compare two
 * unrelated databases by: only a database with its own copy (`SchemaSeed` in schema-cache.ts).
 * A catalog a query of this file starts reading must be added here.
 */
export const CATALOG_DIGEST_SQL = `
  select concat_ws('/',
    ${[
      'pg_namespace',
      'pg_class',
      'pg_attribute',
      'pg_attrdef',
      'pg_type',
      'pg_constraint',
      'pg_proc',
      'pg_language',
      'pg_policy',
      'pg_rewrite',
      'pg_depend',
      'pg_operator',
      'pg_collation',
    ]
      .map(
        (catalog) =>
          `(select count(*) || '.' || coalesce(sum(xmin::text::int8), 0) from pg_catalog.${catalog})`,
      )
      .join(',\n    ')},
    ${[
      'search_path',
      'DateStyle',
      'IntervalStyle',
      'TimeZone',
      'extra_float_digits',
      'quote_all_identifiers',
      'bytea_output',
      'standard_conforming_strings',
    ]
      .map((setting) => `current_setting('${setting}')`)
      .join(', ')}
  ) as digest`;

export const COLUMNS_SQL = `
  select c.relname as table_name, c.relkind::text as kind, a.attname as name,
         format_type(a.atttypid, a.atttypmod) as type,
         coalesce(bt.typname, t.typname)::text as base_type,
         not a.attnotnull as nullable,
         -- An identity column has no pg_attrdef row; its default is its sequence's next value.
         coalesce(pg_get_expr(d.adbin, d.adrelid),
                  case when a.attidentity <> '' then format('nextval(%L::regclass)',
                    pg_get_serial_sequence(format('%I.%I', $1::text, c.relname), a.attname)) end
         ) as default_expr,
         a.attgenerated <> '' as generated
  from pg_class c
  left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  left join pg_type t on t.oid = a.atttypid
  left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
  left join pg_attrdef d on d.adrelid = c.oid and d.adnum = a.attnum
  where c.relnamespace = (select oid from pg_namespace where nspname = $1)
    and c.relkind in ('r', 'v', 'm', 'f', 'p')
  order by c.relname, a.attnum`;

export const CONSTRAINTS_SQL = `
  select con.conname::text as name, con.contype::text as type, c.relname::text as table_name,
         array(select a.attname::text from unnest(con.conkey) with ordinality k(num, ord)
               join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num
               order by k.ord) as columns,
         fc.relname::text as ref_table,
         array(select a.attname::text from unnest(con.confkey) with ordinality k(num, ord)
               join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num
               order by k.ord) as ref_columns
  from pg_constraint con
  join pg_class c on c.oid = con.conrelid
  left join pg_class fc on fc.oid = con.confrelid
  where con.contype in ('p', 'u', 'f')
    and c.relnamespace = (select oid from pg_namespace where nspname = $1)
    and (con.contype <> 'f' or fc.relnamespace = c.relnamespace)
  order by con.conname`;

export const ROUTINES_SQL = `
  select p.proname::text as name, p.provolatile::text as volatility, p.proretset as returns_set,
         rt.typname::text as ret_typname, rt.typtype::text as ret_typtype,
         format_type(p.prorettype, null) as ret_type,
         rt.typrelid::int8::text as ret_relid,
         case when rc.relnamespace = p.pronamespace and rc.relkind in ('r', 'v', 'm', 'f', 'p')
              then rc.relname::text end as ret_table,
         coalesce(p.proargnames::text[], '{}') as arg_names,
         coalesce(p.proargmodes::text[], '{}') as arg_modes,
         array(select format_type(u.t, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]))
               with ordinality u(t, i) order by u.i) as arg_types,
         p.pronargs::int as nargs, p.pronargdefaults::int as nargdefaults
  from pg_proc p
  join pg_type rt on rt.oid = p.prorettype
  left join pg_class rc on rc.oid = rt.typrelid
  where p.pronamespace = (select oid from pg_namespace where nspname = $1)
    and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype
  order by p.proname, p.oid`;

export const COMPOSITE_COLUMNS_SQL = `
  select a.attrelid::int8::text as relid, a.attname::text as name,
         format_type(a.atttypid, a.atttypmod) as type,
         coalesce(bt.typname, t.typname)::text as base_type
  from pg_attribute a
  join pg_type t on t.oid = a.atttypid
  left join pg_type bt on t.typtype = 'd' and bt.oid = t.typbasetype
  where a.attrelid = any($1::oid[]) and a.attnum > 0 and not a.attisdropped
  order by a.attrelid, a.attnum`;

export const TYPES_SQL = `
  select distinct t.typname::text as name from pg_type t
  where t.typnamespace in ('pg_catalog'::regnamespace, (select oid from pg_namespace where nspname = $1))
    and t.typtype in ('b', 'd', 'e', 'r', 'm') and t.typisdefined and t.typname not like '\\_%'
    and t.typname not like 'pg\\_%'`;

/**
 * What may make a read answer differently with no write in between (the PGlite read cache keeps
 * such answers out), matched by `unrepeatable-reads.ts`: the source of every function outside
 * the system schemas whose body is SQL or PL/pgSQL; the name of every other volatile function
 * (those of the system schemas included: `random`, `nextval`, …); the definition of every view
 * and the expressions of every policy outside the system schemas (a view or a policy of the
 * exposed schema may read a table of another schema).
 */
export const UNREPEATABLE_SOURCES_SQL = `
  select case when l.lanname in ('sql', 'plpgsql') and n.nspname <> 'pg_catalog'
              then 'function' else 'opaque' end as kind,
         n.nspname as schema, p.proname as name, coalesce(p.prosrc, '') as source
    from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    join pg_language l on l.oid = p.prolang
   where (l.lanname in ('sql', 'plpgsql') and n.nspname <> 'pg_catalog'
          and n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%')
      or p.provolatile = 'v'
  union all
  select 'relation', n.nspname, c.relname, pg_get_viewdef(c.oid)
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where c.relkind in ('v', 'm')
     and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
  union all
  select 'relation', n.nspname, c.relname,
         coalesce(pg_get_expr(pol.polqual, pol.polrelid), '') || ' ' ||
         coalesce(pg_get_expr(pol.polwithcheck, pol.polrelid), '')
    from pg_policy pol
    join pg_class c on c.oid = pol.polrelid
    join pg_namespace n on n.oid = c.relnamespace
   where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;
