-- The triggers that make a document's size and hash follow its stored file ask first whether
-- any document holds the file (issue 27 item 3): a new upload's file is held by none yet, and
-- their UPDATE of documents opened its fifteen indexes before finding no row, on every upload's
-- trial write and on its row. In process on PGlite (200 inserts of new objects a transaction,
-- medians of 7 rounds alternated with the previous definitions): 980 → 762 µs of CPU per insert
-- (the three document-following triggers disabled: 690). The same updates when one does.

-- Security definer: the storage service may write the object as any member, and the copy must
-- not depend on the member's grants on documents. It touches only the document whose
-- `file_path` is this object's name, in the organisation that the name's folder names (the
-- storage policies already keep every member inside their own organisation's folder). That
-- folder is storage.foldername's second, read without calling it (PL/pgSQL, about 14 µs a call
-- on PGlite): there is one when the name holds two `/`, and it is split_part(name, '/', 2).
-- A new upload's file is held by no document yet (the app inserts the row after it): whether
-- any document holds the name is asked first, since an UPDATE of documents opens its fifteen
-- indexes before it finds that no row matches (about 100 µs of an upload's insert on PGlite,
-- and again in its trial write). The update keeps its whole condition.
create or replace function private.copy_file_size_to_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _size bigint := (new.metadata ->> 'size')::bigint;
begin
  if not exists (select 1 from public.documents d where d.file_path = new.name) then
    return null;
  end if;
  update public.documents d
     set size = _size
   where d.file_path = new.name
     and new.name like '%/%/%'
     and d.organization_id::text = pg_catalog.split_part(new.name, '/', 2)
     and d.size is distinct from _size;
  return null;
end;
$$;

-- A replaced file: its document's hash follows, in the same transaction (as its size does);
-- whether a document holds the file is asked first, as there.
create or replace function private.copy_file_sha256_to_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _sha256 text;
begin
  if not exists (select 1 from public.documents d where d.file_path = new.name) then
    return null;
  end if;
  _sha256 := private.object_sha256(new.metadata, new.user_metadata);
  update public.documents d
     set content_sha256 = _sha256
   where d.file_path = new.name
     and new.name like '%/%/%'
     and d.organization_id::text = pg_catalog.split_part(new.name, '/', 2)
     and d.content_sha256 is distinct from _sha256;
  return null;
end
$$;
