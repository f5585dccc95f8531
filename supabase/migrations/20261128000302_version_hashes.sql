-- Restoring a version checks the bytes, not the size (issue 22, R12). `restore_document_version`
-- compared only the size of the copy it was given with the version's, so a member could give
-- it a file of the same size with other bytes, and the history said the earlier version had
-- been restored. Each version now records the SHA-256 of its file as the storage server
-- computed it while writing the bytes (`metadata.sha256`, migration …0602; never the hash an
-- uploader claims in its user metadata), and a restore must bring a file with that hash.
-- Versions made before this migration take their file's hash here. A hosted Supabase storage
-- server computes no SHA-256: there the copy must have the ETag (the MD5 S3 computed) of the
-- version's own file.

-- ============================================================================================
-- Tables
-- ============================================================================================
alter table public.document_versions
  add column content_sha256 text
    constraint document_versions_content_sha256_format check (content_sha256 ~ '^[0-9a-f]{64}$');

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

update public.document_versions v
   set content_sha256 = private.stored_sha256(o.metadata)
  from storage.objects o
 where o.bucket_id = 'documents' and o.name = v.file_path
   and private.stored_sha256(o.metadata) is not null;

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

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Migration …0301's, with the copy's bytes checked against the version's.
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
revoke all on function private.stored_sha256(jsonb) from public, anon, authenticated;
revoke all on function private.version_sha256_on_insert() from public, anon, authenticated;
revoke all on function private.copy_of_version(storage.objects, public.document_versions)
  from public, anon, authenticated;
