-- The files of documents, of their earlier versions and of trashed documents change only
-- through Steward's own operations (issue 22, R7). Until now a member could, through the
-- storage API, overwrite an earlier version's bytes (no history), overwrite the current file
-- without a version being kept, remove the files of a trashed document (restoring it then
-- brought back a document without a file) and remove a live document's file.
--
-- The app uploads every new file under a new name in the organisation's folder, and then one
-- function makes it a document's file (inserting the document, `replace_document_file`,
-- `renew_document`, `restore_document_version`); after a failure it removes the file it just
-- uploaded. So the rule is on the name: a file that a document or a version names (whether the
-- document is in use or in the trash) is held, and members may write or remove only files no
-- document or version names. The functions that make a file a document's claim it first, so
-- that a write of it racing with them either ends before (and they see its result) or finds
-- it held. Held files are written by those functions and deleted only by
-- `purge_documents` (an admin's "delete for ever", and the trash's expiry), which run as their
-- owner. Through the API the storage server answers a refused upsert, update or copy onto a
-- held name with "new row violates row-level security policy", a refused move with "Object not
-- found", and a refused removal with "Access denied" (one name) or leaves it out of the list of
-- removed files (several).

-- ============================================================================================
-- Helpers
-- ============================================================================================

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
-- file. An import's documents, added by the server with files it wrote under new names in the
-- same transaction, need not.
create function private.claim_file_of_new_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.claim_document_file(new.file_path);
  return new;
end
$$;

create trigger documents_claim_file
  before insert on public.documents
  for each row
  when (pg_catalog.current_setting('role', true) = 'authenticated')
  execute function private.claim_file_of_new_document();

-- A document's new file (edited content, a replacement, a renewal, a restored version) is read
-- for the search as its new upload is not: that object had no document when it was written,
-- so the trigger of migration …0600 on storage.objects found none to queue. (Until now the
-- text was read again only when a file was overwritten where it was, which the policies below
-- end.) The old text stays searchable until the new one is ready.
create function private.document_text_on_new_file()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _version text;
begin
  if not private.text_extraction_enabled() then
    return null;
  end if;
  _version := private.document_object_version(new.file_path);
  update public.document_texts t
     set object_version = _version, state = 'pending', reason = null, updated_at = now()
   where t.document_id = new.id;
  perform private.queue_text_extraction(new.id, new.organization_id, _version);
  return null;
end
$$;

create trigger documents_text_follows_file_path
  after update of file_path on public.documents
  for each row
  when (old.file_path is distinct from new.file_path)
  execute function private.document_text_on_new_file();

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Members upload new files, and replace, rename or remove those of their uploads that no
-- document holds yet; reading stays as it was (migration …0006).
drop policy "members upload document files to their organisation's folder" on storage.objects;
drop policy "members replace their organisation's document files" on storage.objects;
drop policy "members delete their organisation's document files" on storage.objects;

create policy "members upload new document files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
  );

create policy "members replace their organisation's files no document holds"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
  )
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
  );

create policy "members remove their organisation's files no document holds"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
  );

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Migration …0820's, with the new file claimed (see claim_new_document_file), and the
-- document's SHA-256 following its new file (it kept the first file's, so duplicates were
-- looked for by bytes the document no longer had).
create or replace function private.supersede_document_file(document_id uuid, file_path text, change text)
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
  if not found then
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

-- Migration …0800's, with the new file claimed and its SHA-256 recorded, as above.
create or replace function public.renew_document(document_id uuid, file_path text, expiry_date date)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _document public.documents;
  _path text := private.trim_whitespace(coalesce(renew_document.file_path, ''));
  _file storage.objects;
  _next integer;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _document from public.documents d
  where d.id = renew_document.document_id and d.organization_id = _me.organization_id
    and d.deleted_at is null
  for update;
  if not found then
    raise exception 'Document not found';
  end if;
  if renew_document.expiry_date is null then
    raise exception 'Expiry date is required';
  end if;
  if renew_document.expiry_date not between date '1900-01-01' and date '9999-12-31' then
    raise exception 'Expiry date must be between 1900 and 9999';
  end if;
  _file := private.claim_new_document_file(_me.organization_id, _document.file_path, _path);

  select coalesce(max(v.version_number), 0) + 1 into _next
  from public.document_versions v where v.document_id = _document.id;
  insert into public.document_versions
    (document_id, organization_id, version_number, change, file_path, size, name, expiry_date,
     properties, uploaded_by, uploaded_at, replaced_by)
  values
    (_document.id, _document.organization_id, _next, 'renewal', _document.file_path,
     _document.size, _document.name, _document.expiry_date,
     jsonb_build_object('name', _document.name, 'category', _document.category,
                        'tags', to_jsonb(_document.tags), 'description', _document.description,
                        'expiry_date', _document.expiry_date),
     _document.uploaded_by, _document.upload_date, _me.id);

  -- upload_date and uploaded_by describe the current file; created_at stays the document's.
  update public.documents d
  set file_path = _path,
      size = (_file.metadata ->> 'size')::bigint,
      content_sha256 = private.object_sha256(_file.metadata, _file.user_metadata),
      expiry_date = renew_document.expiry_date,
      upload_date = now(),
      uploaded_by = _me.id,
      renewal_in_progress = false,
      renewal_note = null
  where d.id = _document.id
  returning * into _document;
  return _document;
end
$$;

-- Migration …0820's, with the copy claimed before its size is compared.
create or replace function public.restore_document_version(version_id uuid, file_path text)
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
  where v.id = restore_document_version.version_id and v.organization_id = _organization_id;
  if not found then
    raise exception 'Version not found';
  end if;
  _copy := private.claim_document_file(restore_document_version.file_path);
  if _copy.metadata ->> 'size' ~ '^[0-9]{1,18}$'
     and (_copy.metadata ->> 'size')::bigint <> _version.size then
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
-- The policies above call the helper as the signed-in role (the schema itself stays closed).
revoke all on function private.document_file_held(text) from public, anon, authenticated;
grant execute on function private.document_file_held(text) to authenticated;
revoke all on function private.claim_document_file(text) from public, anon, authenticated;
revoke all on function private.claim_new_document_file(uuid, text, text)
  from public, anon, authenticated;
revoke all on function private.claim_file_of_new_document() from public, anon, authenticated;
revoke all on function private.document_text_on_new_file() from public, anon, authenticated;
