-- Export and import of a whole organisation (issue 15, item 4).
--
-- An admin starts an export with `start_organization_export`; the server's job
-- `organization.export` (server/transfer/) writes one ZIP (every document's current file, and
-- its earlier versions when asked, in folders by category, with manifest.json and manifest.csv)
-- into the private bucket `exports` under `{organization_id}/{export_id}.zip`, which the
-- organisation's admins may download until it expires (steward.toml `[transfer]
-- export_retention`). An admin imports such a ZIP by uploading it to the private bucket
-- `imports` under `{organization_id}/…` and calling `start_organization_import`; the job
-- `organization.import` checks the whole file first (a hostile or foreign ZIP is refused with
-- a message and nothing is written) and then adds its documents in one transaction, within
-- the organisation's storage quota. Both are recorded in the history. Neither table is written
-- through the API: the functions below and the server's jobs write them.
--
-- The storage quota (04_storage.sql) counts the uploaded ZIPs like the organisation's other
-- folders, but not the exports (issue 22, R4): an organisation must be able to take its
-- documents out also when its storage is full, which is when it most needs to. Each export is
-- bounded instead: one export at a time is made, and when one is ready the organisation's
-- earlier exports are removed (the app offers only the latest; each could be as large as
-- everything the organisation holds).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.organization_exports (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  requested_by uuid references public.user_profiles (id) on delete set null,
  include_versions boolean not null default false,
  status text not null default 'queued'
    constraint organization_exports_status_check
    check (status in ('queued', 'running', 'ready', 'failed', 'expired')),
  -- How far the ZIP is written, 0–100 (an estimate from the bytes written).
  progress integer not null default 0
    constraint organization_exports_progress_check check (progress between 0 and 100),
  document_count integer,
  -- The object in bucket `exports` while the export is ready.
  file_path text,
  size bigint,
  error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  expires_at timestamptz
);

create table public.organization_imports (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  requested_by uuid references public.user_profiles (id) on delete set null,
  -- The uploaded ZIP in bucket `imports` (removed once the import has run).
  file_path text not null,
  status text not null default 'queued'
    constraint organization_imports_status_check
    check (status in ('queued', 'running', 'done', 'failed')),
  document_count integer,
  -- Why the import was refused, in words for the admin.
  error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);

-- Private buckets: an export is downloaded with the admin's token or a signed link. Imports
-- take any type (browsers name ZIPs differently); the job reads the bytes, not the type.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('exports', 'exports', false, null, '{application/zip}'),
  ('imports', 'imports', false, null, null)
on conflict (id) do nothing;

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index organization_exports_organization_id_idx
  on public.organization_exports (organization_id, created_at desc);
create index organization_exports_requested_by_idx on public.organization_exports (requested_by);
create index organization_exports_expires_at_idx
  on public.organization_exports (expires_at) where status = 'ready';
create index organization_imports_organization_id_idx
  on public.organization_imports (organization_id, created_at desc);
create index organization_imports_requested_by_idx on public.organization_imports (requested_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================

-- The caller's profile when they are an active admin of an organisation; raises otherwise.
create function private.transfer_admin(refusal text)
returns public.user_profiles
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception '%', refusal;
  end if;
  return _me;
end
$$;

-- Adds the documents of an import (checked by the server) to its organisation in the caller's
-- transaction, which the server runs as the admin who started it (so the history and
-- `uploaded_by` name them), in two statements: their files' storage rows (the bytes are
-- already stored under `version`), then the documents, so that the checks made once per
-- statement (the storage quota, the document counters) run once per import. The uploaded
-- ZIP's row goes in the same transaction, so that it does not count against the room its
-- documents need (the server removes its bytes after the commit). The responsible member is
-- the person of the same e-mail address when they are an active member here, else the admin.
-- The quota trigger on storage.objects refuses the whole import when it does not fit (the job
-- asks `private.organization_storage_room` first, 04_storage.sql). Returns how many documents
-- were added.
--
-- `access` carries who could see the restricted categories where they were exported (issue 23):
-- `{"categories": [{"name", "rules": [{"role" | "group", "access"}]}], "groups": [{"name",
-- "members": [e-mail addresses]}]}`. A restricted category this import adds, or one the
-- organisation has open, is restricted here with those rules: the groups they name are the
-- organisation's groups of those names, made (with the members of the same e-mail address who
-- are active here) when it has none. A category the organisation restricted itself keeps its
-- own rules. So an import never shows what was restricted to more people than its rules name,
-- and never shows what the organisation already holds to anyone new.
create function private.finish_organization_import(import_id uuid, documents jsonb, access jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _import public.organization_imports;
  _folder text;
  _count integer;
  _restricting uuid[];
  _restricted_names text[];
begin
  select * into _import from public.organization_imports i where i.id = import_id for update;
  if _import.id is null or _import.status <> 'running' then
    raise exception 'The import is not running';
  end if;
  _folder := 'documents/' || _import.organization_id || '/';
  -- On a hosted project with Steward's worker the uploaded ZIP leaves through Storage, row and
  -- bytes together (the worker's `storage.remove-objects`); a row deleted here would leave its
  -- bytes in Storage's backend.
  if not (select s.objects_removed_through_storage from private.storage_settings s) then
    -- Storage refuses a direct delete of its rows unless asked to, as hosted Storage does.
    perform set_config('storage.allow_delete_query', 'true', true);
    delete from storage.objects o where o.bucket_id = 'imports' and o.name = _import.file_path;
  end if;

  -- Hosted Storage recorded the row of each file the worker uploaded, with its own version,
  -- under which it keeps the bytes: that version stays, the row takes the importing admin as
  -- its owner and Steward's metadata (the SHA-256) besides Storage's.
  insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
  select 'documents', _folder || (x.value ->> 'object_name'), _import.requested_by,
         _import.requested_by::text, x.value ->> 'version', x.value -> 'metadata'
  from jsonb_array_elements(finish_organization_import.documents) with ordinality x
  order by x.ordinality
  on conflict (bucket_id, name) do update
    set owner = excluded.owner, owner_id = excluded.owner_id,
        metadata = coalesce(storage.objects.metadata, '{}'::jsonb) || excluded.metadata;

  -- The categories restricted where they were exported that take their rules here: those the
  -- organisation lacks or has open (see above), read before the missing ones are added.
  select coalesce(array_agg(distinct x.value ->> 'category'), '{}') into _restricted_names
    from jsonb_array_elements(finish_organization_import.documents) x
   where (x.value ->> 'category_restricted')::boolean
     and not exists (select 1 from public.document_categories c
                      where c.organization_id = _import.organization_id
                        and c.name = x.value ->> 'category' and c.restricted);

  -- The documents' categories: those the organisation lacks are added after its own, in the
  -- order the archive first names them, restricted when they were where they were exported.
  insert into public.document_categories (organization_id, name, position, restricted)
  select _import.organization_id, n.name,
         coalesce((select max(c.position) from public.document_categories c
                    where c.organization_id = _import.organization_id), 0) + n.k,
         n.restricted
    from (select x.value ->> 'category' as name,
                 row_number() over (order by min(x.ordinality)) as k,
                 coalesce(bool_or((x.value ->> 'category_restricted')::boolean), false) as restricted
            from jsonb_array_elements(finish_organization_import.documents) with ordinality x
           group by x.value ->> 'category') n
  on conflict (organization_id, name) do nothing;

  with restricting as (
    update public.document_categories c set restricted = true
     where c.organization_id = _import.organization_id and c.name = any (_restricted_names)
    returning c.id
  )
  select coalesce(array_agg(r.id), '{}') into _restricting from restricting r;

  -- Their rules' groups the organisation lacks, with its active members of the same address.
  with named as (
    select distinct rule.value ->> 'group' as name
      from jsonb_array_elements(coalesce(finish_organization_import.access -> 'categories', '[]')) cat
     cross join jsonb_array_elements(coalesce(cat.value -> 'rules', '[]')) rule
     where cat.value ->> 'name' = any (_restricted_names) and rule.value ? 'group'
  ), made as (
    insert into public.member_groups (organization_id, name)
    select _import.organization_id, n.name from named n
    on conflict (organization_id, name) do nothing
    returning id, name
  )
  insert into public.member_group_members (group_id, user_id, organization_id)
  select distinct g.id, p.id, _import.organization_id
    from made g
    join jsonb_array_elements(coalesce(finish_organization_import.access -> 'groups', '[]')) x on x.value ->> 'name' = g.name
   cross join jsonb_array_elements_text(coalesce(x.value -> 'members', '[]')) e
    join public.user_profiles p on p.organization_id = _import.organization_id and p.is_active
                               and lower(p.email) = lower(e.value);

  insert into public.category_access (organization_id, category_id, group_id, role, access)
  select distinct _import.organization_id, c.id, g.id,
         case when rule.value ? 'group' then null else rule.value ->> 'role' end,
         rule.value ->> 'access'
    from public.document_categories c
    join jsonb_array_elements(coalesce(finish_organization_import.access -> 'categories', '[]')) cat
      on cat.value ->> 'name' = c.name
   cross join jsonb_array_elements(coalesce(cat.value -> 'rules', '[]')) rule
    left join public.member_groups g
      on g.organization_id = _import.organization_id and g.name = rule.value ->> 'group'
   where c.id = any (_restricting)
     and (g.id is not null or not rule.value ? 'group');

  -- The responsible member is the person of the same e-mail address when they are an active
  -- member here, else the admin.
  insert into public.documents (organization_id, name, category, expiry_date, size, file_path,
                                tags, description, uploaded_by, responsible_id)
  select _import.organization_id, x.value ->> 'name', x.value ->> 'category',
         (x.value ->> 'expiry_date')::date, (x.value ->> 'size')::bigint,
         _folder || (x.value ->> 'object_name'),
         coalesce(array(select jsonb_array_elements_text(x.value -> 'tags')), '{}'),
         x.value ->> 'description', _import.requested_by,
         coalesce((select p.id from public.user_profiles p
                   where p.organization_id = _import.organization_id and p.is_active
                     and lower(p.email) = lower(x.value ->> 'responsible_email')
                   limit 1),
                  _import.requested_by)
  from jsonb_array_elements(finish_organization_import.documents) with ordinality x
  order by x.ordinality;
  get diagnostics _count = row_count;

  update public.organization_imports
  set status = 'done', document_count = _count, finished_at = now(), error = null
  where id = import_id;
  perform private.log_activity(_import.organization_id, 'organization.imported', null, null,
    jsonb_build_object('documents', _count, 'restricted_categories', to_jsonb(_restricted_names)));
  return _count;
end
$$;

-- The scheduler's clean-up at `at`: exports past their expiry lose their file (the export row
-- stays, `expired`, as a record), and uploaded import ZIPs that no import is using and that are
-- older than a day are removed. The bytes go by the job `storage.remove-files` (on a hosted
-- project with Steward's worker, the rows stay for `storage.remove-objects`).
create function private.expire_organization_transfers(at timestamptz)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _versions text[];
  _exports text[];
  _imports text[];
begin
  -- On a hosted project with Steward's worker, Storage removes the files, rows and bytes
  -- together (`storage.remove-objects`, 15_trash.sql); the rows stay for it until then.
  if (select s.objects_removed_through_storage from private.storage_settings s) then
    with expired as (
      update public.organization_exports e
      set status = 'expired', file_path = null
      where e.status = 'ready' and e.expires_at <= expire_organization_transfers.at
      returning e.organization_id, e.id
    )
    select coalesce(array_agg(e.organization_id || '/' || e.id || '.zip' order by e.id), '{}')
    into _exports from expired e;
    select coalesce(array_agg(o.name order by o.name), '{}') into _imports
    from storage.objects o
    where o.bucket_id = 'imports' and o.created_at <= expire_organization_transfers.at - interval '1 day'
      and not exists (select 1 from public.organization_imports i
                      where i.file_path = o.name and i.status in ('queued', 'running'));
    if cardinality(_exports) > 0 then
      perform private.enqueue_job('storage.remove-objects',
                                  jsonb_build_object('bucket', 'exports', 'names', to_jsonb(_exports)));
    end if;
    if cardinality(_imports) > 0 then
      perform private.enqueue_job('storage.remove-objects',
                                  jsonb_build_object('bucket', 'imports', 'names', to_jsonb(_imports)));
    end if;
    return cardinality(_exports) + cardinality(_imports);
  end if;
  perform set_config('storage.allow_delete_query', 'true', true);
  with expired as (
    update public.organization_exports e
    set status = 'expired', file_path = null
    where e.status = 'ready' and e.expires_at <= expire_organization_transfers.at
    returning e.organization_id, e.id
  ), removed as (
    delete from storage.objects o
    using expired e
    where o.bucket_id = 'exports' and o.name = e.organization_id || '/' || e.id || '.zip'
    returning o.version
  ), abandoned as (
    delete from storage.objects o
    where o.bucket_id = 'imports' and o.created_at <= expire_organization_transfers.at - interval '1 day'
      and not exists (select 1 from public.organization_imports i
                      where i.file_path = o.name and i.status in ('queued', 'running'))
    returning o.version
  )
  select coalesce(array_agg(v.version) filter (where v.version is not null), '{}') into _versions
  from (select version from removed union all select version from abandoned) v;
  if cardinality(_versions) > 0 then
    perform private.enqueue_job('storage.remove-files',
                                jsonb_build_object('versions', to_jsonb(_versions)));
  end if;
  return cardinality(_versions);
end
$$;

-- Removes earlier exports of an organisation once `export_id` is ready: their rows stay,
-- `expired`, as a record; their files' bytes go by the job `storage.remove-files`.
create function private.remove_earlier_exports(organization_id uuid, export_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _versions text[];
  _names text[];
begin
  -- On a hosted project with Steward's worker, Storage removes the files, rows and bytes
  -- together (`storage.remove-objects`, 15_trash.sql); the rows stay for it until then.
  if (select s.objects_removed_through_storage from private.storage_settings s) then
    with earlier as (
      update public.organization_exports e
      set status = 'expired', file_path = null
      where e.organization_id = remove_earlier_exports.organization_id
        and e.status = 'ready' and e.id <> remove_earlier_exports.export_id
      returning e.id
    )
    select coalesce(array_agg(remove_earlier_exports.organization_id || '/' || e.id || '.zip'
                              order by e.id), '{}')
    into _names from earlier e;
    if cardinality(_names) > 0 then
      perform private.enqueue_job('storage.remove-objects',
                                  jsonb_build_object('bucket', 'exports', 'names', to_jsonb(_names)),
                                  remove_earlier_exports.organization_id);
    end if;
    return cardinality(_names);
  end if;
  perform set_config('storage.allow_delete_query', 'true', true);
  with earlier as (
    update public.organization_exports e
    set status = 'expired', file_path = null
    where e.organization_id = remove_earlier_exports.organization_id
      and e.status = 'ready' and e.id <> remove_earlier_exports.export_id
    returning e.id
  ), removed as (
    delete from storage.objects o
    using earlier e
    where o.bucket_id = 'exports'
      and o.name = remove_earlier_exports.organization_id || '/' || e.id || '.zip'
    returning o.version
  )
  select coalesce(array_agg(r.version) filter (where r.version is not null), '{}')
  into _versions from removed r;
  if cardinality(_versions) > 0 then
    perform private.enqueue_job('storage.remove-files',
                                jsonb_build_object('versions', to_jsonb(_versions)),
                                remove_earlier_exports.organization_id);
  end if;
  return cardinality(_versions);
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.organization_exports enable row level security;
alter table public.organization_imports enable row level security;

create policy "admins read their organisation's exports"
  on public.organization_exports for select to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

create policy "admins read their organisation's imports"
  on public.organization_imports for select to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- Exports are written by the server only; admins read (download) their organisation's.
-- The first folder as storage.foldername names it, without calling it (PL/pgSQL, not inlined):
-- there is one when the name holds a `/`, and it is split_part(name, '/', 1).
create policy "admins read their organisation's export files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'exports'
    and pg_catalog.strpos(name, '/') > 0
    and pg_catalog.split_part(name, '/', 1) = (select private.caller_organization_id('admin')::text)
  );

-- Admins upload a ZIP to import into their organisation's folder (and may read it back).
create policy "admins upload import files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'imports'
    and pg_catalog.strpos(name, '/') > 0
    and pg_catalog.split_part(name, '/', 1) = (select private.caller_organization_id('admin')::text)
  );

create policy "admins read their organisation's import files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'imports'
    and pg_catalog.strpos(name, '/') > 0
    and pg_catalog.split_part(name, '/', 1) = (select private.caller_organization_id('admin')::text)
  );

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Starts an export of the caller's organisation (admins); one at a time per organisation.
create function public.start_organization_export(include_versions boolean default false)
returns public.organization_exports
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.transfer_admin('Only admins can export the organization');
  _export public.organization_exports;
begin
  -- One export at a time per organisation: concurrent calls take turns here.
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('organization export ' || _me.organization_id, 7305));
  if exists (select 1 from public.organization_exports e
             where e.organization_id = _me.organization_id and e.status in ('queued', 'running')) then
    raise exception 'An export is already being prepared';
  end if;
  insert into public.organization_exports (organization_id, requested_by, include_versions)
  values (_me.organization_id, _me.id, coalesce(include_versions, false))
  returning * into _export;
  perform private.enqueue_job('organization.export', jsonb_build_object('export_id', _export.id),
    _me.organization_id, 'export:' || _export.id, now(), 3);
  perform private.log_activity(_me.organization_id, 'organization.export_started', null, null,
    jsonb_build_object('include_versions', _export.include_versions));
  return _export;
end
$$;

-- Starts an import of a ZIP the caller (an admin) uploaded to `imports/{organization_id}/…`.
create function public.start_organization_import(file_path text)
returns public.organization_imports
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.transfer_admin('Only admins can import documents');
  _import public.organization_imports;
begin
  if file_path is null
     or (storage.foldername(file_path))[1] is distinct from _me.organization_id::text
     or not exists (select 1 from storage.objects o
                    where o.bucket_id = 'imports' and o.name = file_path) then
    raise exception 'The file to import has not been uploaded';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('organization import ' || _me.organization_id, 7305));
  if exists (select 1 from public.organization_imports i
             where i.organization_id = _me.organization_id and i.status in ('queued', 'running')) then
    raise exception 'An import is already running';
  end if;
  insert into public.organization_imports (organization_id, requested_by, file_path)
  values (_me.organization_id, _me.id, file_path)
  returning * into _import;
  perform private.enqueue_job('organization.import', jsonb_build_object('import_id', _import.id),
    _me.organization_id, 'import:' || _import.id, now(), 3);
  perform private.log_activity(_me.organization_id, 'organization.import_started', null, null,
    '{}'::jsonb);
  return _import;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.organization_exports, public.organization_imports
  from public, anon, authenticated;
grant select on public.organization_exports, public.organization_imports to authenticated;
revoke all on function private.transfer_admin(text) from public, anon, authenticated;
revoke all on function private.finish_organization_import(uuid, jsonb, jsonb)
  from public, anon, authenticated;
revoke all on function private.expire_organization_transfers(timestamptz)
  from public, anon, authenticated;
revoke all on function private.remove_earlier_exports(uuid, uuid)
  from public, anon, authenticated;
revoke all on function public.start_organization_export(boolean) from public, anon, authenticated;
revoke all on function public.start_organization_import(text) from public, anon, authenticated;
grant execute on function public.start_organization_export(boolean) to authenticated;
grant execute on function public.start_organization_import(text) to authenticated;
