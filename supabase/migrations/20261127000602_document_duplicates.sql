-- Duplicates (issue 13): the SHA-256 of each document's file, and a function that finds the
-- organisation's documents with the same bytes, so the app can warn before uploading a file
-- the organisation already has.
--
-- Where the hash comes from: the embedded storage server computes it while it writes the bytes
-- and keeps it in the object's `metadata.sha256`. A hosted Supabase storage server computes no
-- SHA-256; there the app's own hash (computed with WebCrypto before the upload, to ask
-- `find_duplicate_documents`, and sent as the object's user metadata `sha256`) is recorded
-- instead. The storage server's own hash always wins where it has one. A client that sends a
-- wrong hash only misleads its own organisation's duplicate warnings.

-- ============================================================================================
-- Tables
-- ============================================================================================
alter table public.documents
  add column content_sha256 text
    constraint documents_content_sha256_format check (content_sha256 ~ '^[0-9a-f]{64}$');

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index documents_organization_id_content_sha256_idx
  on public.documents (organization_id, content_sha256);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The hash an object's row records: the storage server's, else the uploader's; null if neither
-- is a SHA-256 in lower-case hex.
create function private.object_sha256(metadata jsonb, user_metadata jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select h from (
    select coalesce(
      case when metadata ->> 'sha256' ~ '^[0-9a-f]{64}$' then metadata ->> 'sha256' end,
      case when user_metadata ->> 'sha256' ~ '^[0-9a-f]{64}$' then user_metadata ->> 'sha256' end
    ) as h
  ) x
$$;

-- A new document takes the hash of the file it points at (uploaded just before it).
create function private.document_sha256_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select private.object_sha256(o.metadata, o.user_metadata) into new.content_sha256
    from storage.objects o
   where o.bucket_id = 'documents' and o.name = new.file_path;
  return new;
end
$$;

create trigger documents_sha256_on_insert
  before insert on public.documents
  for each row execute function private.document_sha256_on_insert();

-- A replaced file: its document's hash follows, in the same transaction (as its size does,
-- migration 20261126000001).
create function private.copy_file_sha256_to_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _sha256 text := private.object_sha256(new.metadata, new.user_metadata);
begin
  update public.documents d
     set content_sha256 = _sha256
   where d.file_path = new.name
     and d.organization_id::text = (storage.foldername(new.name))[2]
     and d.content_sha256 is distinct from _sha256;
  return null;
end
$$;

create trigger documents_sha256_follows_file
  after insert or update of metadata, user_metadata on storage.objects
  for each row
  when (new.bucket_id = 'documents')
  execute function private.copy_file_sha256_to_document();

-- ============================================================================================
-- Functions
-- ============================================================================================
-- The caller's organisation's documents whose file has the SHA-256 `sha256` (64 hex digits,
-- either case), newest first, at most 10. Security invoker: row-level security keeps it to the
-- caller's organisation.
create function public.find_duplicate_documents(sha256 text)
returns setof public.documents
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  if sha256 is null or sha256 !~ '^[0-9a-fA-F]{64}$' then
    raise exception 'A SHA-256 is 64 hexadecimal digits';
  end if;
  return query
    select d.* from public.documents d
     where d.content_sha256 = lower(sha256)
     order by d.upload_date desc, d.id desc
     limit 10;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function private.object_sha256(jsonb, jsonb) from public, anon, authenticated;
revoke all on function private.document_sha256_on_insert() from public, anon, authenticated;
revoke all on function private.copy_file_sha256_to_document() from public, anon, authenticated;
revoke all on function public.find_duplicate_documents(text) from public, anon, authenticated;
grant execute on function public.find_duplicate_documents(text) to authenticated;
