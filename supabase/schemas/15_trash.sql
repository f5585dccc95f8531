-- The trash (issue 15): deleting a document moves it to its organisation's trash, with its file,
-- its versions and everything else it had (documents.deleted_at and deleted_by). Row-level
-- security hides trashed documents from every list, counter and search (03_documents.sql); the
-- functions here list the trash, restore from it, and delete for ever (admins, or the server's
-- scheduler once a document has been in the trash longer than `private.trash_settings`'
-- retention, steward.toml `[trash] retention`).
--
-- Files are removed only when a document is deleted for ever: its storage rows go in the same
-- transaction as its row, and a `storage.remove-files` job then removes the bytes (a crash in
-- between leaves unreferenced bytes, which the storage server's start-up sweep removes too).
-- Until then trashed files keep counting towards the organisation's storage quota. On a hosted
-- project with Steward's worker (`private.storage_settings`), the rows stay for the worker,
-- which deletes each file through Storage, row and bytes together (`storage.remove-objects`).

-- ============================================================================================
-- Tables
-- ============================================================================================
-- One row: how long a document stays in the trash. The embedded server writes steward.toml's
-- `[trash] retention` here at start-up; on a hosted project, update it with SQL.
create table private.trash_settings (
  id boolean primary key default true constraint trash_settings_one_row check (id),
  retention interval not null default interval '30 days'
    constraint trash_settings_retention_positive check (retention > interval '0'),
  updated_at timestamptz not null default now()
);
insert into private.trash_settings default values;

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- Deletes trashed documents of one organisation for ever: their rows (their versions, texts
-- and reminder log go with them), their files' storage rows, and queues the removal of the
-- files' bytes. Returns how many documents went. Documents not in the trash are left alone.
create function private.purge_documents(organization_id uuid, document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _ids uuid[];
  _paths text[];
  _versions text[];
  _names text[];
begin
  select coalesce(array_agg(d.id), '{}') into _ids
  from (
    select d.id from public.documents d
    where d.organization_id = purge_documents.organization_id
      and d.id = any (purge_documents.document_ids)
      and d.deleted_at is not null
    order by d.id
    for update
  ) d;
  if cardinality(_ids) = 0 then
    return 0;
  end if;
  select coalesce(array_agg(p.file_path), '{}') into _paths
  from (
    select d.file_path from public.documents d where d.id = any (_ids)
    union
    select v.file_path from public.document_versions v where v.document_id = any (_ids)
  ) p;
  delete from public.documents d where d.id = any (_ids);
  -- On a hosted project with Steward's worker, Storage removes the files, rows and bytes
  -- together (see the top of this file); a file another document or version still names stays.
  if (select s.objects_removed_through_storage from private.storage_settings s) then
    select coalesce(array_agg(o.name order by o.name), '{}') into _names
    from storage.objects o
    where o.bucket_id = 'documents' and o.name = any (_paths)
      and not exists (select 1 from public.documents d where d.file_path = o.name)
      and not exists (select 1 from public.document_versions v where v.file_path = o.name);
    if cardinality(_names) > 0 then
      -- Nobody reads them until the job has removed them (04_storage.sql's read policy).
      insert into private.document_files_leaving (name, organization_id)
      select n.name, purge_documents.organization_id from unnest(_names) n(name)
      on conflict (name) do nothing;
      perform private.enqueue_job('storage.remove-objects',
                                  jsonb_build_object('bucket', 'documents',
                                                     'names', to_jsonb(_names)),
                                  purge_documents.organization_id);
    end if;
    return cardinality(_ids);
  end if;
  -- Storage refuses a direct delete of its rows unless asked to (as hosted Storage does): the
  -- bytes are removed by the job below, so nothing is left behind.
  perform set_config('storage.allow_delete_query', 'true', true);
  -- A file another document or version still names stays (none should, but a copy could).
  with removed as (
    delete from storage.objects o
    where o.bucket_id = 'documents' and o.name = any (_paths)
      and not exists (select 1 from public.documents d where d.file_path = o.name)
      and not exists (select 1 from public.document_versions v where v.file_path = o.name)
    returning o.version
  )
  select coalesce(array_agg(r.version) filter (where r.version is not null), '{}')
  into _versions from removed r;
  if cardinality(_versions) > 0 then
    perform private.enqueue_job('storage.remove-files',
                                jsonb_build_object('versions', to_jsonb(_versions)),
                                purge_documents.organization_id);
  end if;
  return cardinality(_ids);
end
$$;

-- The scheduler's purge: documents that have been in the trash longer than the retention at
-- `at`, at most `batch` of them per run (the next run takes the rest). Returns how many went.
create function private.purge_expired_trash(at timestamptz, batch integer default 1000)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _retention interval := (select s.retention from private.trash_settings s);
  _organization record;
  _purged integer := 0;
begin
  for _organization in
    select d.organization_id, array_agg(d.id) as ids
    from (
      select d.organization_id, d.id from public.documents d
      where d.deleted_at is not null and d.deleted_at <= purge_expired_trash.at - _retention
      order by d.deleted_at
      limit greatest(purge_expired_trash.batch, 1)
    ) d
    group by d.organization_id
  loop
    _purged := _purged + private.purge_documents(_organization.organization_id, _organization.ids);
  end loop;
  return _purged;
end
$$;

-- The name a restored document takes: its own, or when a document in use already has it,
-- "{name} (restored){extension}", then "(restored 2)"… so that both stay, told apart.
create function private.restored_document_name(organization_id uuid, name text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _parts text[] := regexp_match(restored_document_name.name, '^(.*[^.])(\.[^.]{1,20})$');
  _base text := left(coalesce(_parts[1], restored_document_name.name), 470);
  _extension text := coalesce(_parts[2], '');
  _candidate text := restored_document_name.name;
  _n integer := 1;
begin
  while exists (
    select 1 from public.documents d
    where d.organization_id = restored_document_name.organization_id
      and d.deleted_at is null and lower(d.name) = lower(_candidate)
  ) loop
    _candidate := _base || ' (restored' || case when _n > 1 then ' ' || _n else '' end || ')'
                  || _extension;
    _n := _n + 1;
  end loop;
  return _candidate;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Members see and edit only documents in use; the trash is reached through list_trash and the
-- functions below. private.trash_settings: none; only the server, as the owner, reads and
-- writes it.
alter table private.trash_settings enable row level security;

-- ============================================================================================
-- Functions
-- ============================================================================================
-- Moves documents of the caller's organisation to the trash (the app's Delete, for one or
-- many). Every one of them, or (when one is not found, or already in the trash) none.
create function public.delete_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _ids uuid[] := array(select distinct x from unnest(delete_documents.document_ids) x
                       where x is not null);
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  update public.documents d
     set deleted_at = now(), deleted_by = auth.uid()
   where d.id = any (_ids) and d.organization_id = _organization_id and d.deleted_at is null
     and d.category <> all (private.caller_uneditable_categories());
  get diagnostics _changed = row_count;
  if _organization_id is null or _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
end
$$;

-- The caller's organisation's trash, most recently deleted first, with who deleted each
-- document and when it will be deleted for ever.
create type public.trash_entry as (
  id uuid,
  name text,
  category text,
  size bigint,
  file_path text,
  deleted_at timestamptz,
  deleted_by uuid,
  deleted_by_name text,
  purge_at timestamptz
);

create function public.list_trash()
returns setof public.trash_entry
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('viewer');
  _hidden text[] := private.caller_hidden_categories();
  _retention interval := (select s.retention from private.trash_settings s);
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  return query
  select d.id, d.name, d.category, d.size, d.file_path, d.deleted_at, d.deleted_by,
         case when p.id is not null then private.display_name(p) end,
         d.deleted_at + _retention
  from public.documents d
  left join public.user_profiles p on p.id = d.deleted_by
  where d.organization_id = _organization_id and d.deleted_at is not null
    and d.category <> all (_hidden)
  order by d.deleted_at desc, d.id;
end
$$;

-- Any member restores documents from the trash. A restored document whose name a document in
-- use has taken meanwhile gets "(restored)" in its name. Every one of them, or none.
create function public.restore_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _ids uuid[] := array(select distinct x from unnest(restore_documents.document_ids) x
                       where x is not null);
  _document record;
  _changed integer := 0;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  for _document in
    select d.id, d.name from public.documents d
    where d.id = any (_ids) and d.organization_id = _organization_id and d.deleted_at is not null
      and d.category <> all (private.caller_uneditable_categories())
    order by d.deleted_at, d.id
    for update
  loop
    update public.documents d
       set deleted_at = null, deleted_by = null,
           name = private.restored_document_name(_organization_id, _document.name)
     where d.id = _document.id;
    _changed := _changed + 1;
  end loop;
  if _organization_id is null or _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found in the trash';
  end if;
  return _changed;
end
$$;

-- Admins delete documents in the trash for ever, with their files and versions.
create function public.purge_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('admin');
  _ids uuid[] := array(select distinct x from unnest(purge_documents.document_ids) x
                       where x is not null);
  _purged integer;
begin
  if _organization_id is null and private.caller_organization_id() is not null then
    raise exception 'Only admins can delete documents for ever';
  end if;
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  -- Only what the admin may edit (a restricted category's documents are its editors').
  _purged := private.purge_documents(_organization_id, array(
    select d.id from public.documents d
     where d.id = any (_ids) and d.organization_id = _organization_id
       and d.category <> all (private.caller_uneditable_categories())));
  if _organization_id is null or _purged <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found in the trash';
  end if;
  return _purged;
end
$$;

-- Admins empty their organisation's trash. Returns how many documents went.
create function public.empty_trash()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('admin');
begin
  if _organization_id is null then
    if private.caller_organization_id() is not null then
      raise exception 'Only admins can delete documents for ever';
    end if;
    raise exception 'No organization found';
  end if;
  return private.purge_documents(
    _organization_id,
    array(select d.id from public.documents d
          where d.organization_id = _organization_id and d.deleted_at is not null
            and d.category <> all (private.caller_uneditable_categories())));
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on private.trash_settings from public, anon, authenticated, service_role;

revoke all on function private.purge_documents(uuid, uuid[]) from public, anon, authenticated;
revoke all on function private.purge_expired_trash(timestamptz, integer) from public, anon, authenticated;
revoke all on function private.restored_document_name(uuid, text) from public, anon, authenticated;
revoke all on function public.delete_documents(uuid[]) from public, anon, authenticated;
revoke all on function public.list_trash() from public, anon, authenticated;
revoke all on function public.restore_documents(uuid[]) from public, anon, authenticated;
revoke all on function public.purge_documents(uuid[]) from public, anon, authenticated;
revoke all on function public.empty_trash() from public, anon, authenticated;
grant execute on function public.delete_documents(uuid[]) to authenticated;
grant execute on function public.list_trash() to authenticated;
grant execute on function public.restore_documents(uuid[]) to authenticated;
grant execute on function public.purge_documents(uuid[]) to authenticated;
grant execute on function public.empty_trash() to authenticated;
