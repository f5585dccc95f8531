import type { Queryable } from '../../server/db/database.ts';

/**
 * What a database's catalogue says about Steward's own objects, read so that two databases can
 * be compared object by object: one built from `supabase/migrations/` and one from
 * `supabase/schemas/` (the drift test), or an upgraded one and a fresh one (the upgrade test).
 *
 * Each entry is keyed by what the object is and its name (`function private.claim_job(…)`,
 * `policy storage.objects "…"`) and holds the properties that make it behave as it does. Owners
 * are left out (the server migrates as the superuser, the tests as `hosted_postgres`): in access
 * privileges the object's owner is written `OWNER`, and a default ACL is spelled out, so that
 * "never granted" and "granted, then revoked back to the default" compare equal.
 */
export type Catalogue = Map<string, Record<string, unknown>>;

/** Steward's schemas; in `auth` and `storage` only what the migrations add to them. */
const OWN_SCHEMAS = ['public', 'private'];
const PLATFORM_SCHEMAS = ['auth', 'storage'];

/** Tables whose rows the migrations seed (singletons and buckets), compared row by row. */
const SEEDED_ROWS: Record<string, string> = {
  'storage.buckets': `select id, name, public, file_size_limit, allowed_mime_types::text[] as allowed_mime_types
                        from storage.buckets order by id`,
  'private.storage_settings': 'select id, quota_per_organization from private.storage_settings',
  'private.mail_settings': 'select id, delivery from private.mail_settings',
  'private.text_extraction_settings': 'select id, enabled from private.text_extraction_settings',
  'private.trash_settings': 'select id, retention::text as retention from private.trash_settings',
  'private.schedules': 'select name from private.schedules order by name',
};

const own = `(${OWN_SCHEMAS.map((s) => `'${s}'`).join(', ')})`;
const ownAndPlatform = `(${[...OWN_SCHEMAS, ...PLATFORM_SCHEMAS].map((s) => `'${s}'`).join(', ')})`;

/**
 * An ACL as sorted `grantee:PRIVILEGE` items (`*` marks the grant option), the owner written
 * `OWNER` and PUBLIC `PUBLIC`. `aclColumn` may be null: then the object has the default ACL of
 * its kind (`aclKind`, an SQL expression of the letter acldefault takes: r, s, f, n, T).
 */
function aclExpression(aclColumn: string, ownerColumn: string, aclKind: string): string {
  return `(select coalesce(array_agg(item order by item), '{}')
           from (select case when a.grantee = 0 then 'PUBLIC'
                             when a.grantee = ${ownerColumn} then 'OWNER'
                             else pg_get_userbyid(a.grantee) end
                        || ':' || a.privilege_type || case when a.is_grantable then '*' else '' end
                        || case when a.grantor = ${ownerColumn} then ''
                                else ' by ' || pg_get_userbyid(a.grantor) end as item
                   from aclexplode(coalesce(${aclColumn},
                                            acldefault((${aclKind})::"char", ${ownerColumn}))) a) acl)`;
}

interface CatalogueRow {
  key: string;
  value: Record<string, unknown>;
}

const QUERIES: string[] = [
  // Schemas (their usage rights decide what the API roles reach).
  `select 'schema ' || n.nspname as key,
          jsonb_build_object('acl', ${aclExpression('n.nspacl', 'n.nspowner', "'n'")},
                             'comment', obj_description(n.oid, 'pg_namespace')) as value
     from pg_namespace n where n.nspname in ${own}`,

  // Tables, views, sequences: kind, row-level security, options, ACL, comment.
  `select case c.relkind when 'v' then 'view ' when 'm' then 'materialized view '
                         when 'S' then 'sequence ' else 'table ' end
          || n.nspname || '.' || c.relname as key,
          jsonb_build_object(
            'kind', c.relkind,
            'row level security', c.relrowsecurity,
            'forced row level security', c.relforcerowsecurity,
            'options', c.reloptions,
            'definition', case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end,
            'acl', ${aclExpression('c.relacl', 'c.relowner', "case c.relkind when 'S' then 's' else 'r' end")},
            'comment', obj_description(c.oid, 'pg_class')) as value
     from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ${own} and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,

  // Sequences' parameters (identity columns' sequences included).
  `select 'sequence ' || n.nspname || '.' || c.relname || ' parameters' as key,
          jsonb_build_object('type', format_type(s.seqtypid, null), 'start', s.seqstart,
                             'increment', s.seqincrement, 'min', s.seqmin, 'max', s.seqmax,
                             'cache', s.seqcache, 'cycle', s.seqcycle) as value
     from pg_sequence s join pg_class c on c.oid = s.seqrelid
     join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ${own}`,

  // Columns, in their order among the columns that are not dropped.
  `select 'column ' || n.nspname || '.' || c.relname || '.' || a.attname as key,
          jsonb_build_object(
            'position', row_number() over (partition by c.oid order by a.attnum),
            'type', format_type(a.atttypid, a.atttypmod),
            'not null', a.attnotnull,
            'default', pg_get_expr(d.adbin, d.adrelid),
            'identity', nullif(a.attidentity, ''),
            'generated', nullif(a.attgenerated, ''),
            'collation', case when a.attcollation <> t.typcollation then a.attcollation::regcollation::text end,
            'acl', (select coalesce(array_agg(item order by item), '{}')
                      from (select case when x.grantee = 0 then 'PUBLIC'
                                        when x.grantee = c.relowner then 'OWNER'
                                        else pg_get_userbyid(x.grantee) end
                                   || ':' || x.privilege_type
                                   || case when x.is_grantable then '*' else '' end as item
                              from aclexplode(a.attacl) x) acl),
            'comment', col_description(c.oid, a.attnum)) as value
     from pg_attribute a
     join pg_class c on c.oid = a.attrelid
     join pg_namespace n on n.oid = c.relnamespace
     join pg_type t on t.oid = a.atttypid
     left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname in ${own} and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c')
      and a.attnum > 0 and not a.attisdropped`,

  // Constraints (the definition says NOT VALID for one not validated).
  `select 'constraint ' || n.nspname || '.' || coalesce(c.relname, t.typname) || ' ' || k.conname as key,
          jsonb_build_object('definition', pg_get_constraintdef(k.oid),
                             'deferrable', k.condeferrable, 'deferred', k.condeferred,
                             'comment', obj_description(k.oid, 'pg_constraint')) as value
     from pg_constraint k
     join pg_namespace n on n.oid = k.connamespace
     left join pg_class c on c.oid = k.conrelid
     left join pg_type t on t.oid = k.contypid
    where n.nspname in ${own}`,

  // Indexes (constraint indexes included: their definition shows the columns and method).
  `select 'index ' || n.nspname || '.' || i.relname as key,
          jsonb_build_object('definition', pg_get_indexdef(i.oid),
                             'comment', obj_description(i.oid, 'pg_class')) as value
     from pg_index x
     join pg_class i on i.oid = x.indexrelid
     join pg_namespace n on n.oid = i.relnamespace
    where n.nspname in ${own}`,

  // Functions and procedures: signature, result, body, and how they run.
  `select 'function ' || n.nspname || '.' || p.proname
          || '(' || pg_get_function_identity_arguments(p.oid) || ')' as key,
          jsonb_build_object(
            'kind', p.prokind,
            'arguments', pg_get_function_arguments(p.oid),
            'result', pg_get_function_result(p.oid),
            'language', l.lanname,
            'body', p.prosrc,
            'volatility', p.provolatile,
            'security definer', p.prosecdef,
            'strict', p.proisstrict,
            'leakproof', p.proleakproof,
            'parallel', p.proparallel,
            'cost', p.procost,
            'rows', p.prorows,
            'configuration', p.proconfig,
            'acl', ${aclExpression('p.proacl', 'p.proowner', "'f'")},
            'comment', obj_description(p.oid, 'pg_proc')) as value
     from pg_proc p
     join pg_namespace n on n.oid = p.pronamespace
     join pg_language l on l.oid = p.prolang
    where n.nspname in ${own}`,

  // Types the migrations create: composite types (their attributes are columns above),
  // enums and domains.
  `select 'type ' || n.nspname || '.' || t.typname as key,
          jsonb_build_object(
            'kind', t.typtype,
            'labels', (select array_agg(e.enumlabel order by e.enumsortorder)
                         from pg_enum e where e.enumtypid = t.oid),
            'base', case when t.typtype = 'd' then format_type(t.typbasetype, t.typtypmod) end,
            'acl', ${aclExpression('t.typacl', 't.typowner', "'T'")},
            'comment', obj_description(t.oid, 'pg_type')) as value
     from pg_type t
     join pg_namespace n on n.oid = t.typnamespace
     left join pg_class c on c.oid = t.typrelid
    where n.nspname in ${own} and t.typtype in ('c', 'e', 'd')
      and (c.relkind is null or c.relkind = 'c')`,

  // Policies, also those the migrations put on storage.objects.
  `select 'policy ' || n.nspname || '.' || c.relname || ' "' || p.polname || '"' as key,
          jsonb_build_object(
            'command', p.polcmd,
            'permissive', p.polpermissive,
            'roles', (select array_agg(case when r = 0 then 'PUBLIC' else pg_get_userbyid(r) end
                                        order by 1)
                        from unnest(p.polroles) r),
            'using', pg_get_expr(p.polqual, p.polrelid),
            'with check', pg_get_expr(p.polwithcheck, p.polrelid)) as value
     from pg_policy p
     join pg_class c on c.oid = p.polrelid
     join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ${ownAndPlatform}`,

  // Triggers, also those on auth.users and storage.objects.
  `select 'trigger ' || n.nspname || '.' || c.relname || ' ' || t.tgname as key,
          jsonb_build_object('definition', pg_get_triggerdef(t.oid), 'enabled', t.tgenabled,
                             'comment', obj_description(t.oid, 'pg_trigger')) as value
     from pg_trigger t
     join pg_class c on c.oid = t.tgrelid
     join pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ${ownAndPlatform} and not t.tgisinternal`,
];

/** Reads the catalogue of `db` (see {@link Catalogue}). */
export async function readCatalogue(db: Queryable): Promise<Catalogue> {
  const catalogue: Catalogue = new Map();
  for (const sql of QUERIES) {
    for (const row of (await db.query<CatalogueRow>(sql)).rows) {
      catalogue.set(row.key, row.value);
    }
  }
  for (const [table, sql] of Object.entries(SEEDED_ROWS)) {
    const exists = await db.query<{ present: boolean }>(
      'select to_regclass($1) is not null as present',
      [table],
    );
    if (!exists.rows[0]?.present) continue;
    catalogue.set(`rows of ${table}`, { rows: (await db.query(sql)).rows });
  }
  return catalogue;
}

/** Where two texts part: the first line that differs, with the line before it. */
function firstDifference(left: string, right: string): string {
  const a = left.split('\n');
  const b = right.split('\n');
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line += 1;
  const context = line > 0 ? `after line ${line} «${a[line - 1]!.trim()}»: ` : 'at line 1: ';
  return `${context}«${(a[line] ?? '(end)').trim()}» vs «${(b[line] ?? '(end)').trim()}»`;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `«${value}»` : JSON.stringify(value);
}

/**
 * The differences between two catalogues, one sentence each, naming the object and how it
 * differs; empty when they are equal. `labels` name the two sides in the sentences.
 */
export function compareCatalogues(
  left: Catalogue,
  right: Catalogue,
  labels: [string, string],
): string[] {
  const [leftLabel, rightLabel] = labels;
  const differences: string[] = [];
  const keys = [...new Set([...left.keys(), ...right.keys()])].sort();
  for (const key of keys) {
    const a = left.get(key);
    const b = right.get(key);
    if (!b) {
      differences.push(`${key}: only in ${leftLabel}`);
      continue;
    }
    if (!a) {
      differences.push(`${key}: only in ${rightLabel}`);
      continue;
    }
    for (const field of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
      const x = a[field] ?? null;
      const y = b[field] ?? null;
      if (JSON.stringify(x) === JSON.stringify(y)) continue;
      const how =
        typeof x === 'string' && typeof y === 'string' && (x.includes('\n') || y.includes('\n'))
          ? firstDifference(x, y)
          : `${describe(x)} vs ${describe(y)}`;
      differences.push(`${key}: ${field} differs (${leftLabel} vs ${rightLabel}): ${how}`);
    }
  }
  return differences;
}
