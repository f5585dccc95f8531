-- Versions of a document's file: renewing a document (10_renewals.sql), editing a text file's
-- content and replacing the file keep the previous file as a version instead of deleting it,
-- and restoring a version makes its file current again as a new change (the file it replaces
-- becomes a version in turn). Each row is a snapshot of the document as it was, with the file
-- it had (kept in storage under its own name) and why it was superseded. Each new file is
-- uploaded first under a new name in the organisation's folder; the functions make it the
-- document's file in one transaction. The history records each change (16_activity.sql's
-- trigger reads the version a change kept).
--
-- The files of documents, of their earlier versions and of trashed documents change only
-- through Steward's own operations (issue 22, R7). The app uploads every new file under a new
-- name in the organisation's folder, and then one function makes it a document's file
-- (inserting the document, `replace_document_file`, `renew_document`,
-- `restore_document_version`); after a failure it removes the file it just uploaded. So the
-- rule is on the name: a file that a document or a version names (whether the document is in
-- use or in the trash) is held, and members may write or remove only files no document or
-- version names (the policies on storage.objects below). The functions that make a file a
-- document's claim it first, so that a write of it racing with them either ends before (and
-- they see its result) or finds it held. Held files are written by those functions and deleted
-- only by `purge_documents` (an admin's "delete for ever", and the trash's expiry;
-- 15_trash.sql), which run as their owner. Through the API the storage server answers a refused
-- upsert, update or copy onto a held name with "new row violates row-level security policy", a
-- refused move with "Object not found", and a refused removal with "Access denied" (one name)
-- or leaves it out of the list of removed files (several).
--
-- Restoring a version checks the bytes, not only the size (issue 22, R12): a file of the same
-- size with other bytes must not pass for the version in the history. Each version records the
-- SHA-256 of its file as the storage server computed it while writing the bytes
-- (`metadata.sha256`, migration …0602; never the hash an uploader claims in its user
-- metadata), and a restore must bring a file with that hash. A hosted Supabase storage server
-- computes no SHA-256: there the copy must have the ETag (the MD5 S3 computed) of the version's
-- own file.

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
  -- The SHA-256 the storage server recorded for this version's file, taken when the version is
  -- kept (null where it recorded none: hosted Supabase).
  content_sha256 text
    constraint document_versions_content_sha256_format check (content_sha256 ~ '^[0-9a-f]{64}$'),
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
-- The SHA-256 the storage server recorded for an object it wrote; null where it recorded none.
create function private.stored_sha256(metadata jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when metadata ->> 'sha256' ~ '^[0-9a-f]{64}$' then metadata ->> 'sha256' end
$$;

-- A new version takes the hash of its file (every function that keeps a version inserts it).
create function private.version_sha256_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select private.stored_sha256(o.metadata) into new.content_sha256
  from storage.objects o
  where o.bucket_id = 'documents' and o.name = new.file_path;
  return new;
end
$$;

create trigger document_versions_sha256_on_insert
  before insert on public.document_versions
  for each row execute function private.version_sha256_on_insert();

-- Whether `copy` (an object of the documents bucket) has the bytes of `version`: its SHA-256
-- where the storage server records them, else (hosted Supabase) its ETag and size.
create function private.copy_of_version(copy storage.objects, version public.document_versions)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _original storage.objects;
begin
  if coalesce(copy.metadata ->> 'size', '') !~ '^[0-9]{1,18}$'
     or (copy.metadata ->> 'size')::bigint <> version.size then
    return false;
  end if;
  if version.content_sha256 is not null then
    return private.stored_sha256(copy.metadata) is not distinct from version.content_sha256;
  end if;
  select o.* into _original from storage.objects o
  where o.bucket_id = 'documents' and o.name = version.file_path;
  return _original.metadata ->> 'eTag' is not null
     and _original.metadata ->> 'eTag' = copy.metadata ->> 'eTag';
end
$$;

-- Whether a document (in use or in the trash) or an earlier version names the object
-- `file_path` of the documents bucket. Security definer: the policies ask it as the caller,
-- who cannot see trashed documents, nor versions of them. Volatile, so that it reads the
-- latest committed state each time it is asked: a write through the API that had to wait for
-- a function claiming the file (below) checks again after that function committed, and then
-- finds the file held. (Stable, it would answer with the writer's first snapshot.)
create function private.document_file_held(file_path text)
returns boolean
language sql
volatile
security definer
set search_path = ''
as $$
  select exists (select 1 from public.documents d where d.file_path = document_file_held.file_path)
      or exists (select 1 from public.document_versions v
                 where v.file_path = document_file_held.file_path)
$$;

-- Claims the object `file_path` of the documents bucket for a document: its row is updated
-- (`last_accessed_at`), which waits for a write of it in progress, and makes any write or
-- removal through the API that reaches it later check the policies again, after this
-- transaction, when the file is held. Returns the object as it is then (no row: all null).
create function private.claim_document_file(file_path text)
returns storage.objects
language plpgsql
security definer
set search_path = ''
as $$
declare
  _object storage.objects;
begin
  update storage.objects o set last_accessed_at = now()
  where o.bucket_id = 'documents' and o.name = claim_document_file.file_path
  returning o.* into _object;
  return _object;
end
$$;

-- The new file of a document of `organization_id` whose file is now `current_file_path`: it
-- must be in the organisation's folder, uploaded, and held by no document or version yet (the
-- errors of migrations …0501 and …0820). Claims it and returns its object.
create function private.claim_new_document_file(
  organization_id uuid,
  current_file_path text,
  file_path text
)
returns storage.objects
language plpgsql
security definer
set search_path = ''
as $$
declare
  _object storage.objects;
begin
  if file_path !~ ('^documents/' || organization_id::text || '/[^/]+$')
     or split_part(file_path, '/', 3) in ('.', '..') then
    raise exception 'The new file must be uploaded to the organization''s documents folder';
  end if;
  _object := private.claim_document_file(file_path);
  if file_path = current_file_path or private.document_file_held(file_path) then
    raise exception 'The new file must be a new upload';
  end if;
  if _object.id is null or coalesce(_object.metadata ->> 'size', '') !~ '^[0-9]{1,18}$' then
    raise exception 'The new file has not been uploaded';
  end if;
  return _object;
end
$$;

-- A document added through the API (the app uploads the file, then inserts the row) claims its
-- file, which no other document, version or trashed document may hold. An import's documents, added by the server with files it wrote under new names in the
-- same transaction, need not.
create function private.claim_file_of_new_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.claim_document_file(new.file_path);
  -- A second document on a held file would let its delete or edit reach bytes that belong to
  -- another document, an earlier version or the trash.
  if private.document_file_held(new.file_path) then
    raise exception 'This file belongs to another document' using errcode = '23505';
  end if;
  return new;
end
$$;

create trigger documents_claim_file
  before insert on public.documents
  for each row
  when (pg_catalog.current_setting('role', true) = 'authenticated')
  execute function private.claim_file_of_new_document();

-- Makes `file_path` (uploaded by the caller, a new object in the organisation's folder) the
-- file of the caller's document `document_id`, keeping the current file as its newest version
-- with `change`; the new file is claimed first (claim_new_document_file), and the document's
-- size and SHA-256 follow it (so duplicates are looked for by the bytes the document has).
-- Returns the updated document.
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
  _file storage.objects;
  _next integer;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _document from public.documents d
  where d.id = supersede_document_file.document_id and d.organization_id = _me.organization_id
    and d.deleted_at is null
  for update;
  if not found or not private.member_may_edit_document(_me.id, _document.id) then
    raise exception 'Document not found';
  end if;
  _file := private.claim_new_document_file(_me.organization_id, _document.file_path, _path);

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
  set file_path = _path, size = (_file.metadata ->> 'size')::bigint,
      content_sha256 = private.object_sha256(_file.metadata, _file.user_metadata),
      upload_date = now(), uploaded_by = _me.id
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
    organization_id = (select private.caller_organization_id('viewer'))
    and exists (select 1 from public.documents d where d.id = document_id)
  );

-- No insert, update or delete policies: versions are written by the functions below and
-- renew_document, and go with their document.

-- The documents bucket (04_storage.sql): members upload new files to their organisation's
-- folder, and replace, rename or remove those of their uploads that no document or version
-- holds yet; reading is in 04_storage.sql. Uploading with upsert and updating a file's content
-- need select and update as well as insert.
-- Names like an import's file (`import-{import}-…`, which the read policy withholds until that
-- import is done) are the imports' alone: a member's file so named would be nobody's to read.
-- The folders are read as storage.foldername names them (every part but the last), without
-- calling it (PL/pgSQL, about 14 µs a call on PGlite, and not inlined): `like 'documents/%/%'`
-- is its first folder 'documents' with a second one, and split_part(name, '/', 2) that second.
create policy "members upload new document files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'documents'
    and name like 'documents/%/%'
    and pg_catalog.split_part(name, '/', 2) = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
    and name !~ '^documents/[^/]+/import-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-'
  );

create policy "members replace their organisation's files no document holds"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'documents'
    and name like 'documents/%/%'
    and pg_catalog.split_part(name, '/', 2) = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
  )
  with check (
    bucket_id = 'documents'
    and name like 'documents/%/%'
    and pg_catalog.split_part(name, '/', 2) = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
    and name !~ '^documents/[^/]+/import-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-'
  );

create policy "members remove their organisation's files no document holds"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'documents'
    and name like 'documents/%/%'
    and pg_catalog.split_part(name, '/', 2) = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
  );

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
-- becomes the newest version. The version itself stays as it was. The copy must have the
-- version's bytes (copy_of_version), checked after it is claimed.
create function public.restore_document_version(version_id uuid, file_path text)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _version public.document_versions;
  _copy storage.objects;
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  select v.* into _version from public.document_versions v
  join public.documents d on d.id = v.document_id and d.deleted_at is null
  where v.id = restore_document_version.version_id and v.organization_id = _organization_id
    and d.category <> all (private.caller_uneditable_categories());
  if not found then
    raise exception 'Version not found';
  end if;
  -- Claimed first: its bytes cannot change between the check and the restore.
  _copy := private.claim_document_file(restore_document_version.file_path);
  if _copy.id is not null and not private.copy_of_version(_copy, _version) then
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

revoke all on function private.stored_sha256(jsonb) from public, anon, authenticated;
revoke all on function private.version_sha256_on_insert() from public, anon, authenticated;
revoke all on function private.copy_of_version(storage.objects, public.document_versions)
  from public, anon, authenticated;
-- The storage policies above call document_file_held as the signed-in role (the schema itself
-- stays closed).
revoke all on function private.document_file_held(text) from public, anon, authenticated;
grant execute on function private.document_file_held(text) to authenticated;
revoke all on function private.claim_document_file(text) from public, anon, authenticated;
revoke all on function private.claim_new_document_file(uuid, text, text)
  from public, anon, authenticated;
revoke all on function private.claim_file_of_new_document() from public, anon, authenticated;
revoke all on function private.supersede_document_file(uuid, text, text) from public, anon, authenticated;
revoke all on function public.replace_document_file(uuid, text, text) from public, anon, authenticated;
revoke all on function public.restore_document_version(uuid, text) from public, anon, authenticated;
grant execute on function public.replace_document_file(uuid, text, text) to authenticated;
grant execute on function public.restore_document_version(uuid, text) to authenticated;
