-- The storage quota counts everything an organisation stores (issue 22, R4). Outside it until
-- now: ZIPs uploaded to the `imports` bucket (8 × 40 MiB showed as 0 used), and resumable
-- uploads in progress, whose bytes wait on the server's disk for up to a day before they are an
-- object (8 × 45 MiB by a plain member).
--
-- - `imports/{organization_id}/…` counts like the organisation's other folders.
-- - A resumable upload reserves its declared length (`Upload-Length`) when it is created,
--   within the quota, until its object is committed (in the same transaction), it is
--   cancelled or refused, or it is abandoned (a day). The embedded server keeps the
--   reservations; on hosted Supabase, whose storage server does not, the table stays empty.
-- - Exports do not count: an organisation must be able to take its documents out also when its
--   storage is full, which is when it most needs to. Each is bounded instead: one export at a
--   time is made, and when one is ready the organisation's earlier exports are removed (the
--   app offers only the latest; each could be as large as everything the organisation holds).
--
-- Admins see what takes the room: `organization_storage_usage()` now also answers the bytes of
-- documents, earlier versions, the trash, imports, uploads in progress and other files (the
-- logo, uploads that are no document yet), and of the latest export, which is not counted.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- One row per resumable upload in progress whose object would count towards a quota.
create table private.upload_reservations (
  -- The resumable upload's id (the server's name for it).
  id uuid primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- Its declared length.
  bytes bigint not null constraint upload_reservations_bytes_check check (bytes >= 0),
  created_at timestamptz not null default now()
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index upload_reservations_organization_id_idx
  on private.upload_reservations (organization_id);
create index upload_reservations_created_at_idx on private.upload_reservations (created_at);

-- ============================================================================================
-- Helpers
-- ============================================================================================

-- Migration …0100's, with the imports bucket: `{organization_id}/…` there counts too.
create or replace function private.object_organization_id(bucket_id text, name text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case when folder ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then folder::uuid end
  from (
    select case
      when bucket_id = 'documents' and (storage.foldername(name))[1] = 'documents'
        then (storage.foldername(name))[2]
      when bucket_id in ('branding', 'imports') then (storage.foldername(name))[1]
    end as folder
  ) f
$$;

-- The bytes of an organisation's objects in one bucket whose names start with `prefix`.
create function private.bucket_folder_bytes(bucket_id text, prefix text)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(private.object_bytes(o.metadata)), 0)::bigint
  from storage.objects o
  where o.bucket_id = bucket_folder_bytes.bucket_id
    and o.name operator(pg_catalog.~>=~) bucket_folder_bytes.prefix
    -- '/' + 1 is '0': every name that starts with the folder, through the prefix index.
    and o.name operator(pg_catalog.~<~) (left(bucket_folder_bytes.prefix, -1) || '0')
$$;

-- Migration …0100's, with the imports bucket and the reserved uploads: what counts towards the
-- quota, but the object named (except_bucket_id, except_name), if given.
create or replace function private.organization_storage_bytes(
  organization_id uuid,
  except_bucket_id text default null,
  except_name text default null
)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select private.bucket_folder_bytes('documents', 'documents/' || organization_id || '/')
       + private.bucket_folder_bytes('branding', organization_id || '/')
       + private.bucket_folder_bytes('imports', organization_id || '/')
       - coalesce((select private.object_bytes(o.metadata) from storage.objects o
                   where o.bucket_id = except_bucket_id and o.name = except_name
                     and private.object_organization_id(o.bucket_id, o.name)
                         = organization_storage_bytes.organization_id), 0)
       + coalesce((select sum(r.bytes) from private.upload_reservations r
                   where r.organization_id = organization_storage_bytes.organization_id), 0)
$$;

-- Reserves `bytes` for the resumable upload `upload_id` of the object (bucket_id, name), within
-- its organisation's quota (an object of that name that it would replace aside); nothing for a
-- name outside every organisation's folders. Raises the quota's refusal (42501).
create function private.reserve_upload(upload_id uuid, bucket_id text, name text, bytes bigint)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.object_organization_id(bucket_id, name);
  _quota bigint := (select s.quota_per_organization from private.storage_settings s);
begin
  if _organization_id is null then
    return;
  end if;
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('storage quota ' || _organization_id, 7305));
  if private.organization_storage_bytes(_organization_id, bucket_id, name) + bytes
     > coalesce(_quota, 0) then
    raise exception using errcode = '42501', message = private.storage_quota_refusal(_quota);
  end if;
  insert into private.upload_reservations (id, organization_id, bytes)
  values (upload_id, _organization_id, reserve_upload.bytes);
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
begin
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
alter table private.upload_reservations enable row level security;
-- No policies: only the server's own connection and the functions above read or write it.

-- ============================================================================================
-- Functions
-- ============================================================================================
alter type public.storage_usage_result
  add attribute documents_bytes bigint,
  add attribute versions_bytes bigint,
  add attribute trash_bytes bigint,
  add attribute imports_bytes bigint,
  add attribute uploads_bytes bigint,
  add attribute other_bytes bigint,
  add attribute export_bytes bigint;

-- Migration …0100's, with what takes the room: the current files of documents in use, their
-- earlier versions, trashed documents with their versions, ZIPs uploaded to import, uploads in
-- progress, and the rest (the logo, uploads that are no document yet); and the latest export,
-- which does not count. The parts add up to `used_bytes` (documents' sizes follow their files).
create or replace function public.organization_storage_usage()
returns public.storage_usage_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _organization_id uuid := _me.organization_id;
  _result public.storage_usage_result;
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to view storage usage';
  end if;
  _result.used_bytes := private.organization_storage_bytes(_organization_id);
  _result.quota_bytes := (select s.quota_per_organization from private.storage_settings s);
  select coalesce(sum(d.size) filter (where d.deleted_at is null), 0),
         coalesce(sum(d.size) filter (where d.deleted_at is not null), 0)
  into _result.documents_bytes, _result.trash_bytes
  from public.documents d where d.organization_id = _organization_id;
  select coalesce(sum(v.size) filter (where d.deleted_at is null), 0),
         _result.trash_bytes + coalesce(sum(v.size) filter (where d.deleted_at is not null), 0)
  into _result.versions_bytes, _result.trash_bytes
  from public.document_versions v join public.documents d on d.id = v.document_id
  where v.organization_id = _organization_id;
  _result.imports_bytes := private.bucket_folder_bytes('imports', _organization_id || '/');
  _result.uploads_bytes := coalesce((select sum(r.bytes) from private.upload_reservations r
                                     where r.organization_id = _organization_id), 0);
  _result.other_bytes := greatest(_result.used_bytes - _result.documents_bytes
                                  - _result.versions_bytes - _result.trash_bytes
                                  - _result.imports_bytes - _result.uploads_bytes, 0);
  _result.export_bytes := private.bucket_folder_bytes('exports', _organization_id || '/');
  return _result;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on private.upload_reservations from public, anon, authenticated;
revoke all on function private.bucket_folder_bytes(text, text) from public, anon, authenticated;
revoke all on function private.reserve_upload(uuid, text, text, bigint)
  from public, anon, authenticated;
revoke all on function private.remove_earlier_exports(uuid, uuid)
  from public, anon, authenticated;
