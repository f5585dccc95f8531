-- Versions of a document's file: renewing a document (10_renewals.sql), editing a text file's
-- content and replacing the file keep the previous file as a version instead of deleting it,
-- and restoring a version makes its file current again as a new change (the file it replaces
-- becomes a version in turn). Each row is a snapshot of the document as it was, with the file
-- it had (kept in storage under its own name) and why it was superseded. Each new file is
-- uploaded first under a new name in the organisation's folder; the functions make it the
-- document's file in one transaction. The history records each change (16_activity.sql's
-- trigger reads the version a change kept).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.document_versions (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null references public.documents (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- 1, 2, 3… per document, in the order they were superseded.
  version_number integer not null constraint document_versions_number_check check (version_number >= 1),
  -- Why this version was superseded (`properties_edit` is not used yet).
  change text not null
    constraint document_versions_change_check check (
      change in ('renewal', 'file_replacement', 'content_edit', 'properties_edit', 'version_restore')
    ),
  -- The file of this version: the storage object stays under this name in the organisation's
  -- folder (and counts towards its storage quota).
  file_path text not null
    constraint document_versions_file_path_in_folder check (
      file_path ~ ('^documents/' || organization_id::text || '/[^/]+$')
      and split_part(file_path, '/', 3) not in ('.', '..')
    ),
  size bigint not null constraint document_versions_size_check check (size >= 0),
  -- The document's properties as they were (name, category, tags, description, expiry_date).
  name text not null,
  expiry_date date,
  properties jsonb not null default '{}'::jsonb,
  -- Who uploaded this version's file, and when.
  uploaded_by uuid references public.user_profiles (id) on delete set null,
  uploaded_at timestamptz not null,
  -- Who superseded it, and when.
  replaced_by uuid references public.user_profiles (id) on delete set null,
  replaced_at timestamptz not null default now(),
  constraint document_versions_number_unique unique (document_id, version_number)
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index document_versions_organization_id_idx on public.document_versions (organization_id);
create index document_versions_file_path_idx on public.document_versions (file_path);
create index document_versions_uploaded_by_idx on public.document_versions (uploaded_by);
create index document_versions_replaced_by_idx on public.document_versions (replaced_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- Makes `file_path` (uploaded by the caller, a new object in the organisation's folder) the
-- file of the caller's document `document_id`, keeping the current file as its newest version
-- with `change`. Returns the updated document.
create function private.supersede_document_file(document_id uuid, file_path text, change text)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _document public.documents;
  _path text := private.trim_whitespace(coalesce(supersede_document_file.file_path, ''));
  _size bigint;
  _next integer;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _document from public.documents d
  where d.id = supersede_document_file.document_id and d.organization_id = _me.organization_id
    and d.deleted_at is null
  for update;
  if not found then
    raise exception 'Document not found';
  end if;
  if _path !~ ('^documents/' || _me.organization_id::text || '/[^/]+$')
     or split_part(_path, '/', 3) in ('.', '..') then
    raise exception 'The new file must be uploaded to the organization''s documents folder';
  end if;
  if _path = _document.file_path
     or exists (select 1 from public.documents d where d.file_path = _path)
     or exists (select 1 from public.document_versions v where v.file_path = _path) then
    raise exception 'The new file must be a new upload';
  end if;
  select (o.metadata ->> 'size')::bigint into _size
  from storage.objects o
  where o.bucket_id = 'documents' and o.name = _path and o.metadata ->> 'size' ~ '^[0-9]{1,18}$';
  if not found then
    raise exception 'The new file has not been uploaded';
  end if;

  select coalesce(max(v.version_number), 0) + 1 into _next
  from public.document_versions v where v.document_id = _document.id;
  insert into public.document_versions
    (document_id, organization_id, version_number, change, file_path, size, name, expiry_date,
     properties, uploaded_by, uploaded_at, replaced_by)
  values
    (_document.id, _document.organization_id, _next, supersede_document_file.change,
     _document.file_path, _document.size, _document.name, _document.expiry_date,
     jsonb_build_object('name', _document.name, 'category', _document.category,
                        'tags', to_jsonb(_document.tags), 'description', _document.description,
                        'expiry_date', _document.expiry_date),
     _document.uploaded_by, _document.upload_date, _me.id);

  update public.documents d
  set file_path = _path, size = _size, upload_date = now(), uploaded_by = _me.id
  where d.id = _document.id
  returning * into _document;
  return _document;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.document_versions enable row level security;

-- The versions of a trashed document are out of sight with it.
create policy "members read their organisation's document versions"
  on public.document_versions for select to authenticated
  using (
    organization_id = (select private.caller_organization_id())
    and exists (select 1 from public.documents d where d.id = document_id)
  );

-- No insert, update or delete policies: versions are written by the functions below and
-- renew_document, and go with their document.

-- ============================================================================================
-- Functions
-- ============================================================================================
-- A new file for a document: its edited content (`content_edit`, the default) or a
-- replacement (`file_replacement`). The previous file stays as the newest version.
create function public.replace_document_file(
  document_id uuid,
  file_path text,
  change text default 'content_edit'
)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
begin
  if replace_document_file.change is null
     or replace_document_file.change not in ('content_edit', 'file_replacement') then
    raise exception 'The change must be content_edit or file_replacement';
  end if;
  return private.supersede_document_file(replace_document_file.document_id,
                                         replace_document_file.file_path,
                                         replace_document_file.change);
end
$$;

-- Restores an earlier version: `file_path` is a copy of the version's file the caller made
-- (Storage copy) under a new name; it becomes the document's file, and the file it replaces
-- becomes the newest version. The version itself stays as it was.
create function public.restore_document_version(version_id uuid, file_path text)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _version public.document_versions;
  _copy_size bigint;
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  select v.* into _version from public.document_versions v
  join public.documents d on d.id = v.document_id and d.deleted_at is null
  where v.id = restore_document_version.version_id and v.organization_id = _organization_id;
  if not found then
    raise exception 'Version not found';
  end if;
  select (o.metadata ->> 'size')::bigint into _copy_size
  from storage.objects o
  where o.bucket_id = 'documents' and o.name = restore_document_version.file_path
    and o.metadata ->> 'size' ~ '^[0-9]{1,18}$';
  if found and _copy_size <> _version.size then
    raise exception 'The new file must be a copy of the version';
  end if;
  -- For the history's entry (migration …0810): which version came back.
  perform set_config('steward.restored_version', _version.version_number::text, true);
  return private.supersede_document_file(_version.document_id, restore_document_version.file_path,
                                         'version_restore');
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.document_versions from anon, authenticated;
grant select on public.document_versions to authenticated;

revoke all on function private.supersede_document_file(uuid, text, text) from public, anon, authenticated;
revoke all on function public.replace_document_file(uuid, text, text) from public, anon, authenticated;
revoke all on function public.restore_document_version(uuid, text) from public, anon, authenticated;
grant execute on function public.replace_document_file(uuid, text, text) to authenticated;
grant execute on function public.restore_document_version(uuid, text) to authenticated;
