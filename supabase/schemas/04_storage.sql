-- Storage: the buckets and who may touch which objects. Object names are paths inside the
-- bucket, and the first folders name the organisation:
--   documents: documents/{organization_id}/{timestamp}-{random}.{ext}  (members read and write)
--   branding:  {organization_id}/logo.svg, logo.png (made by the server), logo-source
--                                                                       (members read, admins write)
-- Guessing another organisation's path gives nothing: its objects are invisible. (The buckets
-- `exports` and `imports` are in 18_transfer.sql.) Members write and remove only the files of
-- the documents bucket that no document or version holds (issue 22, R7); those policies are in
-- 09_versions.sql, after the tables their rule reads.
--
-- A storage quota per organisation, counting everything it stores (issue 22, R4): all of an
-- organisation's objects together, in every bucket whose object names start with its folder
-- (documents: `documents/{organization_id}/…`, branding and imports: `{organization_id}/…`),
-- and its resumable uploads in progress, may take at most `private.storage_settings`'s quota.
-- The check is a trigger on storage.objects, so it holds for every writer (the embedded
-- server, a hosted Supabase project's storage server, SQL); a lock per organisation makes
-- concurrent uploads of one organisation take turns, so together they cannot pass the quota.
-- Exports do not count (18_transfer.sql says why). Admins read their organisation's usage, and
-- what takes it, with `organization_storage_usage()`. What an organisation holds is a running
-- total (`private.organization_storage_totals`) that the same triggers keep, so a check reads
-- one row instead of summing every object the organisation has (issue 27 item 3).

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Both buckets private: files are reached with the caller's token or a signed URL, never
-- publicly.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('documents', 'documents', false, 52428800, null),         -- 50 MB per object
  -- An SVG logo, or an image the server converts (08_organization_settings.sql), up to 5 MiB
  ('branding', 'branding', false, 5242880, '{image/svg+xml,image/png,image/jpeg,image/webp}')
on conflict (id) do nothing;

-- One row. The embedded server writes steward.toml's `[storage] quota_per_organization` here
-- at start-up; on a hosted project, update it with SQL. The default is steward.toml's (10 GiB).
create table private.storage_settings (
  id boolean primary key default true constraint storage_settings_one_row check (id),
  quota_per_organization bigint not null
    constraint storage_settings_quota_not_negative check (quota_per_organization >= 0),
  updated_at timestamptz not null default now(),
  -- Whether a hosted project's Storage removes the files of documents deleted for ever, row and
  -- bytes together, for Steward's worker (set by the worker at its start; 15_trash.sql).
  objects_removed_through_storage boolean not null default false
);
insert into private.storage_settings (quota_per_organization) values (10737418240);

-- One row per resumable upload in progress whose object would count towards a quota. Its bytes
-- wait on the server's disk for up to a day before they are an object, so the upload reserves
-- its declared length (`Upload-Length`) when it is created, within the quota, until its object
-- is committed (in the same transaction), it is cancelled or refused, or it is abandoned (a
-- day). The embedded server keeps the reservations; on hosted Supabase, whose storage server
-- does not, the table stays empty.
create table private.upload_reservations (
  -- The resumable upload's id (the server's name for it).
  id uuid primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- Its declared length.
  bytes bigint not null constraint upload_reservations_bytes_check check (bytes >= 0),
  created_at timestamptz not null default now()
);

-- The bytes each organisation's objects take in the buckets that count (documents, branding,
-- imports: what private.object_organization_id names an organisation for), kept by statement
-- triggers on storage.objects below in the writer's own transaction, so a rolled-back write
-- leaves it as it was. Every change to a row takes the organisation's quota lock first (the
-- same lock, taken before the row, everywhere), so writers of one organisation take turns in
-- one order and never deadlock over it. The key is the folder's id, not a reference to
-- public.organizations: objects outlive a deleted organisation (nothing removes them), and the
-- total stays what they take until they are removed. `npm run check-consistency` compares it
-- with the objects and `--fix` recounts a drift.
create table private.organization_storage_totals (
  organization_id uuid primary key,
  bytes bigint not null default 0
);

-- The files of documents purged on a hosted project with Steward's worker, from the purge until
-- the job `storage.remove-objects` has removed them through Storage (15_trash.sql): the read
-- policy below refuses them meanwhile. Embedded, a purge deletes the rows at once.
create table private.document_files_leaving (
  -- The object's name in the documents bucket.
  name text primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  since timestamptz not null default now()
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- storage.objects already has (bucket_id, name) unique and a prefix index on name. The usage
-- sum reads one organisation's folder through storage.objects' name_prefix_search index
-- (text_pattern_ops), with the byte-wise range operators below.
create index upload_reservations_organization_id_idx
  on private.upload_reservations (organization_id);
create index upload_reservations_created_at_idx on private.upload_reservations (created_at);
create index document_files_leaving_organization_id_idx
  on private.document_files_leaving (organization_id);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The names of the caller's organisation's files of purged documents on their way out
-- (`private.document_files_leaving`): the storage read policy refuses them. Read once per
-- statement; empty but for the moments between a purge and its removal job.
create function private.caller_files_leaving()
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(l.name), '{}') from private.document_files_leaving l
   where l.organization_id = (select private.caller_organization_id('viewer'))
$$;

-- Whether the object `name` of the documents bucket is a file a hosted project's import wrote
-- (`documents/{organisation}/import-{import}-…`, see server/transfer/import-files.ts) and that
-- import is not done: the storage read policy refuses it. The policy asks only for names
-- that look like one. Security definer: the policy asks it as the signed-in role, which has no
-- right on the private schema.
create function private.unfinished_import_file(name text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _import text := substring(unfinished_import_file.name from
    '^documents/[^/]+/import-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-');
begin
  return _import is not null
     and not exists (select 1 from public.organization_imports i
                      where i.id = _import::uuid and i.status = 'done');
end
$$;

-- Whether a member of the organisation `organization_id` (as text), who may not view the
-- categories `hidden` and whose organisation's files `leaving` are on their way out, may read
-- the object `name` of the documents bucket. The one definition of that rule: the read policy
-- below and `public.record_document_looks` (which runs as its owner, so row-level security
-- does not apply inside it) both ask it. The caller's values are arguments so that the policy
-- passes its `(select …)` InitPlans, evaluated once per statement, not once per row. Security
-- definer: the policy asks it as the signed-in role, which has no right on the private schema.
-- The folders as storage.foldername names them, read without calling it (see the documents
-- bucket's policies in 09_versions.sql); false where it answered null, as both callers read it.
create function private.document_file_readable(name text, organization_id text, hidden text[],
                                               leaving text[])
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return document_file_readable.name like 'documents/%/%'
     and pg_catalog.split_part(document_file_readable.name, '/', 2)
         = document_file_readable.organization_id
     and (hidden = '{}' or not private.file_in_categories(document_file_readable.name, hidden))
     and document_file_readable.name <> all (leaving)
     and not (document_file_readable.name like 'documents/%/import-%'
              and private.unfinished_import_file(document_file_readable.name));
end
$$;

-- The organisation whose folder holds an object, or null for names outside every organisation
-- folder (those count towards no quota; neither do exports, whose bucket is not named here).
-- The folders as storage.foldername names them (every part but the last), read with split_part:
-- storage.foldername is PL/pgSQL (about 14 µs a call on PGlite), and every object row written
-- or removed comes here from the quota's triggers, twice for the documents bucket. A name has a
-- first folder when it holds a `/`, a second when it holds two.
create function private.object_organization_id(bucket_id text, name text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case when folder ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then folder::uuid end
  from (
    select case
      when bucket_id = 'documents' and name like 'documents/%/%'
        then pg_catalog.split_part(name, '/', 2)
      when bucket_id in ('branding', 'imports') and pg_catalog.strpos(name, '/') > 0
        then pg_catalog.split_part(name, '/', 1)
    end as folder
  ) f
$$;

-- The bytes an object takes: its stored size, or while it is being checked before its bytes
-- arrive, the length its request declared (as the storage server's trial write records it).
-- private.bucket_folder_bytes writes the same expression out for its sums (keep them alike).
create function private.object_bytes(metadata jsonb)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select case
    when metadata ->> 'size' ~ '^[0-9]{1,18}$' then (metadata ->> 'size')::bigint
    when metadata ->> 'contentLength' ~ '^[0-9]{1,18}$' then (metadata ->> 'contentLength')::bigint
    else 0
  end
$$;

-- The bytes of an organisation's objects in one bucket whose names start with `prefix`. Each
-- object's bytes are private.object_bytes' expression, written out here (keep the two alike):
-- a call of that function per object, with its own search_path, took three times as long
-- (1,000 objects: 8.5 ms, 2.9 ms written out, on PGlite), when every upload summed its
-- organisation's objects. Uploads now read the running total; this sums the usage's parts and
-- recounts a total (private.recount_organization_storage).
create function private.bucket_folder_bytes(bucket_id text, prefix text)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(case
           when o.metadata ->> 'size' ~ '^[0-9]{1,18}$' then (o.metadata ->> 'size')::bigint
           when o.metadata ->> 'contentLength' ~ '^[0-9]{1,18}$'
             then (o.metadata ->> 'contentLength')::bigint
           else 0
         end), 0)::bigint
  from storage.objects o
  where o.bucket_id = bucket_folder_bytes.bucket_id
    and o.name operator(pg_catalog.~>=~) bucket_folder_bytes.prefix
    -- '/' + 1 is '0': every name that starts with the folder, through the prefix index.
    and o.name operator(pg_catalog.~<~) (left(bucket_folder_bytes.prefix, -1) || '0')
$$;

-- What counts towards an organisation's quota (its folders in the documents, branding and
-- imports buckets, as their running total, and its reserved uploads), but the object named
-- (except_bucket_id, except_name), if given.
create function private.organization_storage_bytes(
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
  select coalesce((select t.bytes from private.organization_storage_totals t
                   where t.organization_id = organization_storage_bytes.organization_id), 0)
       - coalesce((select private.object_bytes(o.metadata) from storage.objects o
                   where o.bucket_id = except_bucket_id and o.name = except_name
                     and private.object_organization_id(o.bucket_id, o.name)
                         = organization_storage_bytes.organization_id), 0)
       + coalesce((select sum(r.bytes) from private.upload_reservations r
                   where r.organization_id = organization_storage_bytes.organization_id), 0)
$$;

-- What a writer past the quota is told, in words from this one place.
create function private.storage_quota_refusal(quota bigint)
returns text
language sql
immutable
set search_path = ''
as $$
  select format('Your organization''s storage is full (quota: %s)',
                pg_catalog.pg_size_pretty(coalesce(quota, 0)))
$$;

-- The bytes an organisation may still store (never negative), leaving out the object named by
-- (except_bucket_id, except_name) if given, and the refusal past them. An import is held to the
-- quota while it unpacks (issue 22, R3): the job asks how much room the organisation has (its
-- uploaded ZIP left out) before the worker writes a byte, and the worker stops at the first
-- file past it, rather than writing everything for the quota check to refuse at the end.
create function private.organization_storage_room(
  organization_id uuid,
  except_bucket_id text default null,
  except_name text default null
)
returns table (room bigint, refusal text)
language sql
stable
security definer
set search_path = ''
as $$
  select greatest(coalesce(s.quota_per_organization, 0)
                  - private.organization_storage_bytes(organization_storage_room.organization_id,
                                                       organization_storage_room.except_bucket_id,
                                                       organization_storage_room.except_name),
                  0)::bigint,
         private.storage_quota_refusal(s.quota_per_organization)
  from private.storage_settings s
$$;

-- The running total and the quota check, once per statement and organisation over the rows
-- the statement wrote (transition tables): a check per row made an import of n documents sum n
-- times over a growing folder (1,000 documents: 17 s of its transaction's 20 s on PGlite); this
-- way adding an import's documents takes time in proportion to their number. For each
-- organisation whose bytes the statement changed, in the organisations' order: its lock, then
-- its total, then (when it grew) the check. A statement that grows what an organisation holds
-- must leave it within the quota; one that does not (a removal, a smaller replacement, a rename
-- inside it) always passes, so an organisation over a lowered quota can still tidy up. The lock
-- is held until commit, so the next writer of the organisation counts after this one commits:
-- two uploads cannot pass the quota together, and the total's row is only ever written under
-- it (its row lock never waits, so it cannot close a cycle with the advisory lock). Security
-- definer: the totals and the settings are private.
-- `changes` is an array of (organization_id, bytes): what each organisation gained (or lost);
-- raises the quota's refusal when one grew and now holds more than the quota.
create function private.record_storage_changes(changes jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _change record;
  _quota bigint := (select s.quota_per_organization from private.storage_settings s);
begin
  for _change in
    select (x ->> 'organization_id')::uuid as organization_id, (x ->> 'bytes')::bigint as bytes
    from jsonb_array_elements(changes) x
    where (x ->> 'bytes')::bigint <> 0
    order by 1
  loop
    perform pg_catalog.pg_advisory_xact_lock(
      pg_catalog.hashtextextended('storage quota ' || _change.organization_id, 7305));
    insert into private.organization_storage_totals as t (organization_id, bytes)
    values (_change.organization_id, _change.bytes)
    on conflict (organization_id) do update set bytes = t.bytes + excluded.bytes;
    if _change.bytes > 0
       and private.organization_storage_bytes(_change.organization_id) > coalesce(_quota, 0) then
      -- 42501 with a message of our own: the storage server passes the message through
      -- (AccessDenied), where any other code would reach the client as "database error".
      raise exception using errcode = '42501', message = private.storage_quota_refusal(_quota);
    end if;
  end loop;
end
$$;

create function private.enforce_storage_quota_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.record_storage_changes(coalesce((
    select jsonb_agg(jsonb_build_object('organization_id', g.organization_id, 'bytes', g.bytes))
    from (
      select private.object_organization_id(n.bucket_id, n.name) as organization_id,
             sum(private.object_bytes(n.metadata)) as bytes
      from new_objects n
      group by 1
    ) g
    where g.organization_id is not null), '[]'::jsonb));
  return null;
end
$$;

-- An update that changes no object's bucket, name or metadata (the size) changes no total:
-- `claim_document_file` touches `last_accessed_at` of the file of every new document and every
-- content edit, and computing and recording the zero changes cost such an update about 250 µs
-- of its 290 µs of trigger on PGlite. The test compares what the totals read of each row: an
-- update has as many new rows as old ones, so the new rows' values all being among the old
-- ones' (`except all` counts repeats) means that they are the same values. A trigger with a column list
-- (`update of …`) would not do: it cannot have transition tables, and it does not fire for a
-- value a BEFORE trigger changed.
create function private.enforce_storage_quota_on_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if not exists (select n.bucket_id, n.name, n.metadata from new_objects n
                 except all
                 select o.bucket_id, o.name, o.metadata from old_objects o) then
    return null;
  end if;
  perform private.record_storage_changes(coalesce((
    select jsonb_agg(jsonb_build_object('organization_id', g.organization_id, 'bytes', g.bytes))
    from (
      select c.organization_id, sum(c.bytes) as bytes
      from (
        select private.object_organization_id(n.bucket_id, n.name) as organization_id,
               private.object_bytes(n.metadata) as bytes
        from new_objects n
        union all
        select private.object_organization_id(o.bucket_id, o.name),
               -private.object_bytes(o.metadata)
        from old_objects o
      ) c
      group by 1
    ) g
    where g.organization_id is not null), '[]'::jsonb));
  return null;
end
$$;

create function private.count_storage_on_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.record_storage_changes(coalesce((
    select jsonb_agg(jsonb_build_object('organization_id', g.organization_id, 'bytes', g.bytes))
    from (
      select private.object_organization_id(o.bucket_id, o.name) as organization_id,
             -sum(private.object_bytes(o.metadata)) as bytes
      from old_objects o
      group by 1
    ) g
    where g.organization_id is not null), '[]'::jsonb));
  return null;
end
$$;

-- A truncated storage.objects holds nothing, so no organisation holds anything. (TRUNCATE
-- takes the table's exclusive lock first, so no writer of objects holds a total's lock here.)
create function private.count_storage_on_truncate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.organization_storage_totals;
  return null;
end
$$;

-- Recounts an organisation's total from its objects, under its quota lock (the consistency
-- check's `--fix`, after a drift it reports); returns the bytes counted.
create function private.recount_organization_storage(organization_id uuid)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  _bytes bigint;
begin
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('storage quota ' || recount_organization_storage.organization_id,
                                7305));
  _bytes := private.bucket_folder_bytes('documents',
                                        'documents/' || recount_organization_storage.organization_id
                                        || '/')
          + private.bucket_folder_bytes('branding',
                                        recount_organization_storage.organization_id || '/')
          + private.bucket_folder_bytes('imports',
                                        recount_organization_storage.organization_id || '/');
  insert into private.organization_storage_totals as t (organization_id, bytes)
  values (recount_organization_storage.organization_id, _bytes)
  -- By the constraint's name: the column's would be ambiguous with the argument's.
  on conflict on constraint organization_storage_totals_pkey do update set bytes = excluded.bytes;
  return _bytes;
end
$$;

create trigger objects_respect_storage_quota_on_insert
  after insert on storage.objects
  referencing new table as new_objects
  for each statement execute function private.enforce_storage_quota_on_insert();

create trigger objects_respect_storage_quota_on_update
  after update on storage.objects
  referencing old table as old_objects new table as new_objects
  for each statement execute function private.enforce_storage_quota_on_update();

create trigger objects_count_storage_on_delete
  after delete on storage.objects
  referencing old table as old_objects
  for each statement execute function private.count_storage_on_delete();

create trigger objects_count_storage_on_truncate
  after truncate on storage.objects
  for each statement execute function private.count_storage_on_truncate();

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

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Members' writes of document files are in 09_versions.sql (only files no document or version
-- holds).
-- The files of documents (and their versions) in categories the member may not view are not
-- there for them (checked per object only when some category is hidden from the caller).
create policy "members read their organisation's document files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'documents'
    and private.document_file_readable(name,
                                       (select private.caller_organization_id('viewer')::text),
                                       (select private.caller_hidden_categories()),
                                       (select private.caller_files_leaving())::text[])
  );

-- The first folder as storage.foldername names it, without calling it (see the documents
-- bucket's policies in 09_versions.sql).
create policy "members read their organisation's logo"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'branding'
    and pg_catalog.strpos(name, '/') > 0
    and pg_catalog.split_part(name, '/', 1) = (select private.caller_organization_id('viewer')::text)
  );

create policy "admins upload their organisation's logo"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'branding'
    and name in ((select private.caller_organization_id('admin')::text) || '/logo.svg',
                 (select private.caller_organization_id('admin')::text) || '/logo-source')
  );

create policy "admins replace their organisation's logo"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'branding'
    and name in ((select private.caller_organization_id('admin')::text) || '/logo.svg',
                 (select private.caller_organization_id('admin')::text) || '/logo-source')
  )
  with check (
    bucket_id = 'branding'
    and name in ((select private.caller_organization_id('admin')::text) || '/logo.svg',
                 (select private.caller_organization_id('admin')::text) || '/logo-source')
  );

create policy "admins remove their organisation's logo"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'branding'
    and name in ((select private.caller_organization_id('admin')::text) || '/logo.svg',
                 (select private.caller_organization_id('admin')::text) || '/logo.png',
                 (select private.caller_organization_id('admin')::text) || '/logo-source')
  );

-- private.storage_settings, private.upload_reservations and private.organization_storage_totals:
-- no policies; only the server's own connection and the functions above read or write them.
alter table private.storage_settings enable row level security;
alter table private.upload_reservations enable row level security;
alter table private.organization_storage_totals enable row level security;
alter table private.document_files_leaving enable row level security;

-- ============================================================================================
-- Functions
-- ============================================================================================
create type public.storage_usage_result as (
  used_bytes bigint,
  quota_bytes bigint,
  documents_bytes bigint,
  versions_bytes bigint,
  trash_bytes bigint,
  imports_bytes bigint,
  uploads_bytes bigint,
  other_bytes bigint,
  export_bytes bigint
);

-- The caller's organisation's storage against its quota, and what takes the room: the current
-- files of documents in use, their earlier versions, trashed documents with their versions,
-- ZIPs uploaded to import, uploads in progress, and the rest (the logo, uploads that are no
-- document yet); and the latest export, which does not count. The parts add up to
-- `used_bytes` (documents' sizes follow their files). Admins and master admins only.
create function public.organization_storage_usage()
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
-- The platform's grants on storage.objects stand; the policies above decide.
revoke all on private.storage_settings from public, anon, authenticated;
revoke all on private.upload_reservations from public, anon, authenticated;
revoke all on private.organization_storage_totals from public, anon, authenticated;
revoke all on private.document_files_leaving from public, anon, authenticated;
revoke all on function private.caller_files_leaving() from public, anon, authenticated;
revoke all on function private.unfinished_import_file(text) from public, anon, authenticated;
revoke all on function private.document_file_readable(text, text, text[], text[])
  from public, anon, authenticated;
-- The read policy above calls them as the signed-in role.
grant execute on function private.caller_files_leaving() to authenticated;
grant execute on function private.unfinished_import_file(text) to authenticated;
grant execute on function private.document_file_readable(text, text, text[], text[])
  to authenticated;
revoke all on function private.object_organization_id(text, text) from public, anon, authenticated;
revoke all on function private.object_bytes(jsonb) from public, anon, authenticated;
revoke all on function private.bucket_folder_bytes(text, text) from public, anon, authenticated;
revoke all on function private.organization_storage_bytes(uuid, text, text)
  from public, anon, authenticated;
revoke all on function private.storage_quota_refusal(bigint) from public, anon, authenticated;
revoke all on function private.organization_storage_room(uuid, text, text)
  from public, anon, authenticated;
revoke all on function private.record_storage_changes(jsonb) from public, anon, authenticated;
revoke all on function private.enforce_storage_quota_on_insert() from public, anon, authenticated;
revoke all on function private.enforce_storage_quota_on_update() from public, anon, authenticated;
revoke all on function private.count_storage_on_delete() from public, anon, authenticated;
revoke all on function private.count_storage_on_truncate() from public, anon, authenticated;
revoke all on function private.recount_organization_storage(uuid)
  from public, anon, authenticated;
revoke all on function private.reserve_upload(uuid, text, text, bigint)
  from public, anon, authenticated;
revoke all on function public.organization_storage_usage() from public, anon, authenticated;
grant execute on function public.organization_storage_usage() to authenticated;
