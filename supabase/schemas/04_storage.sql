-- Storage: the buckets and who may touch which objects. Object names are paths inside the
-- bucket, and the first folders name the organisation:
--   documents: documents/{organization_id}/{timestamp}-{random}.{ext}  (members read and write)
--   branding:  {organization_id}/logo.svg                               (members read, admins write)
-- Guessing another organisation's path gives nothing: its objects are invisible. (The buckets
-- `exports` and `imports` are in 18_transfer.sql.)
--
-- A storage quota per organisation: all of an organisation's objects together, in every bucket
-- whose object names start with its folder (documents: `documents/{organization_id}/…`,
-- branding: `{organization_id}/…`), may take at most `private.storage_settings`'s quota. The
-- check is a trigger on storage.objects, so it holds for every writer (the embedded server, a
-- hosted Supabase project's storage server, SQL); a lock per organisation makes concurrent
-- uploads of one organisation take turns, so together they cannot pass the quota. Admins read
-- their organisation's usage with `organization_storage_usage()`.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Both buckets private: files are reached with the caller's token or a signed URL, never
-- publicly.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('documents', 'documents', false, 52428800, null),         -- 50 MB per object
  ('branding', 'branding', false, 1048575, '{image/svg+xml}') -- SVG only, under 1 MB
on conflict (id) do nothing;

-- One row. The embedded server writes steward.toml's `[storage] quota_per_organization` here
-- at start-up; on a hosted project, update it with SQL. The default is steward.toml's (10 GiB).
create table private.storage_settings (
  id boolean primary key default true constraint storage_settings_one_row check (id),
  quota_per_organization bigint not null
    constraint storage_settings_quota_not_negative check (quota_per_organization >= 0),
  updated_at timestamptz not null default now()
);
insert into private.storage_settings (quota_per_organization) values (10737418240);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- storage.objects already has (bucket_id, name) unique and a prefix index on name. The usage
-- sum reads one organisation's folder through storage.objects' name_prefix_search index
-- (text_pattern_ops), with the byte-wise range operators below.

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The organisation whose folder holds an object, or null for names outside every organisation
-- folder (those count towards no quota).
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
      when bucket_id = 'documents' and (storage.foldername(name))[1] = 'documents'
        then (storage.foldername(name))[2]
      when bucket_id = 'branding' then (storage.foldername(name))[1]
    end as folder
  ) f
$$;

-- The bytes an object takes: its stored size, or while it is being checked before its bytes
-- arrive, the length its request declared (as the storage server's trial write records it).
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

-- Bytes of all of an organisation's objects but the one named (bucket_id, name), if given.
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
  select coalesce(sum(private.object_bytes(o.metadata)), 0)::bigint
  from storage.objects o
  where ((o.bucket_id = 'documents'
          and o.name operator(pg_catalog.~>=~) ('documents/' || organization_id || '/')
          and o.name operator(pg_catalog.~<~) ('documents/' || organization_id || '0'))
      or (o.bucket_id = 'branding'
          and o.name operator(pg_catalog.~>=~) (organization_id || '/')
          and o.name operator(pg_catalog.~<~) (organization_id || '0')))
    and (except_name is null or o.bucket_id <> except_bucket_id or o.name <> except_name)
$$;

-- Refuses a write that would take an organisation past its quota. A write that does not grow
-- what the organisation holds (a smaller replacement, a rename inside it) always passes, so an
-- organisation over a lowered quota can still tidy up. Security definer: the usage counts
-- objects the writer may not see, and the settings are private.
create function private.enforce_storage_quota()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.object_organization_id(new.bucket_id, new.name);
  _bytes bigint := private.object_bytes(new.metadata);
  _replaced bigint := 0;
  _quota bigint;
  _others bigint;
begin
  if _organization_id is null then
    return new;
  end if;
  -- One writer per organisation at a time, until commit: the next one sums after this one.
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('storage quota ' || _organization_id, 7305));
  -- What this write replaces: the row itself on update, the row of the same name on an upsert.
  if tg_op = 'UPDATE'
     and private.object_organization_id(old.bucket_id, old.name) = _organization_id then
    _replaced := private.object_bytes(old.metadata);
  elsif tg_op = 'INSERT' then
    select private.object_bytes(o.metadata) into _replaced
    from storage.objects o where o.bucket_id = new.bucket_id and o.name = new.name;
    _replaced := coalesce(_replaced, 0);
  end if;
  if _bytes <= _replaced then
    return new;
  end if;
  select s.quota_per_organization into _quota from private.storage_settings s;
  _others := private.organization_storage_bytes(
    _organization_id,
    case when tg_op = 'UPDATE' then old.bucket_id else new.bucket_id end,
    case when tg_op = 'UPDATE' then old.name else new.name end);
  if _others + _bytes > coalesce(_quota, 0) then
    -- 42501 with a message of our own: the storage server passes the message through
    -- (AccessDenied), where any other code would reach the client as "database error".
    raise exception using
      errcode = '42501',
      message = format('Your organization''s storage is full (quota: %s)',
                       pg_catalog.pg_size_pretty(coalesce(_quota, 0)));
  end if;
  return new;
end
$$;

create trigger objects_respect_storage_quota
  before insert or update of bucket_id, name, metadata on storage.objects
  for each row
  execute function private.enforce_storage_quota();

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Uploading with upsert and updating a file's content need select and update as well as insert.
create policy "members read their organisation's document files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members upload document files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members replace their organisation's document files"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  )
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members delete their organisation's document files"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members read their organisation's logo"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'branding'
    and (storage.foldername(name))[1] = (select private.caller_organization_id()::text)
  );

create policy "admins upload their organisation's logo"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  );

create policy "admins replace their organisation's logo"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  )
  with check (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  );

create policy "admins remove their organisation's logo"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  );

-- private.storage_settings: no policies; only the server's own connection and the functions
-- above read or write it.
alter table private.storage_settings enable row level security;

-- ============================================================================================
-- Functions
-- ============================================================================================
create type public.storage_usage_result as (
  used_bytes bigint,
  quota_bytes bigint
);

-- The caller's organisation's storage against its quota: admins and master admins only.
create function public.organization_storage_usage()
returns public.storage_usage_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _result public.storage_usage_result;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to view storage usage';
  end if;
  select private.organization_storage_bytes(_me.organization_id), s.quota_per_organization
  into _result
  from private.storage_settings s;
  return _result;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
-- The platform's grants on storage.objects stand; the policies above decide.
revoke all on private.storage_settings from public, anon, authenticated;
revoke all on function private.object_organization_id(text, text) from public, anon, authenticated;
revoke all on function private.object_bytes(jsonb) from public, anon, authenticated;
revoke all on function private.organization_storage_bytes(uuid, text, text)
  from public, anon, authenticated;
revoke all on function private.enforce_storage_quota() from public, anon, authenticated;
revoke all on function public.organization_storage_usage() from public, anon, authenticated;
grant execute on function public.organization_storage_usage() to authenticated;
