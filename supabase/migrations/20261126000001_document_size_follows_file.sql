-- A document's recorded size follows its stored file. Editing a document's content replaces the
-- object in the `documents` bucket; the new size is copied onto the document in the same
-- transaction as the object's row, so a crash between the browser's two requests (the file,
-- then the row) can no longer leave the new bytes with the old size.

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- The document of a stored file, for this trigger and for the consistency check.
create index documents_file_path_idx on public.documents (file_path);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- Security definer: the storage service may write the object as any member, and the copy must
-- not depend on the member's grants on documents. It touches only the document whose
-- `file_path` is this object's name, in the organisation that the name's folder names (the
-- storage policies already keep every member inside their own organisation's folder).
create function private.copy_file_size_to_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _size bigint := (new.metadata ->> 'size')::bigint;
begin
  update public.documents d
     set size = _size
   where d.file_path = new.name
     and d.organization_id::text = (storage.foldername(new.name))[2]
     and d.size is distinct from _size;
  return null;
end;
$$;

create trigger documents_size_follows_file
  after insert or update of metadata on storage.objects
  for each row
  when (new.bucket_id = 'documents' and new.metadata ? 'size'
        and (new.metadata ->> 'size') ~ '^[0-9]{1,18}$')
  execute function private.copy_file_size_to_document();

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function private.copy_file_size_to_document() from public, anon, authenticated;
