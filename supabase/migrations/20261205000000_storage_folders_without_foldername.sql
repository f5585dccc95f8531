-- The storage policies, document_file_readable and the triggers that find an object's
-- document read an object's folders with split_part instead of storage.foldername (issue 27
-- item 3): storage.foldername is PL/pgSQL (about 14 µs a call on PGlite, 5–7 calls a request of
-- the load's mix) and cannot be inlined. Each reads the folders as storage.foldername names them
-- (every part but the last): a first folder when the name holds a `/` (split_part(name, '/', 1)),
-- a second when it holds two (split_part(name, '/', 2)); `like 'documents/%/%'` is a first
-- folder 'documents' with a second one. Every policy allows and refuses what it did; where
-- storage.foldername's form answered null, these answer false, and every reader of them (a
-- policy's condition, coalesce(…, false), a where clause) takes both as no.

drop policy "members upload new document files to their organisation's folder" on storage.objects;

create policy "members upload new document files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'documents'
    and name like 'documents/%/%'
    and pg_catalog.split_part(name, '/', 2) = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
    and name !~ '^documents/[^/]+/import-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-'
  );

drop policy "members replace their organisation's files no document holds" on storage.objects;

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

drop policy "members remove their organisation's files no document holds" on storage.objects;

create policy "members remove their organisation's files no document holds"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'documents'
    and name like 'documents/%/%'
    and pg_catalog.split_part(name, '/', 2) = (select private.caller_organization_id()::text)
    and not private.document_file_held(name)
  );

drop policy "members read their organisation's logo" on storage.objects;

create policy "members read their organisation's logo"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'branding'
    and pg_catalog.strpos(name, '/') > 0
    and pg_catalog.split_part(name, '/', 1) = (select private.caller_organization_id('viewer')::text)
  );

drop policy "admins read their organisation's export files" on storage.objects;

create policy "admins read their organisation's export files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'exports'
    and pg_catalog.strpos(name, '/') > 0
    and pg_catalog.split_part(name, '/', 1) = (select private.caller_organization_id('admin')::text)
  );

drop policy "admins upload import files to their organisation's folder" on storage.objects;

create policy "admins upload import files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'imports'
    and pg_catalog.strpos(name, '/') > 0
    and pg_catalog.split_part(name, '/', 1) = (select private.caller_organization_id('admin')::text)
  );

drop policy "admins read their organisation's import files" on storage.objects;

create policy "admins read their organisation's import files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'imports'
    and pg_catalog.strpos(name, '/') > 0
    and pg_catalog.split_part(name, '/', 1) = (select private.caller_organization_id('admin')::text)
  );

create or replace function private.document_file_readable(name text, organization_id text, hidden text[],
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

create or replace function private.copy_file_size_to_document()
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
     and new.name like '%/%/%'
     and d.organization_id::text = pg_catalog.split_part(new.name, '/', 2)
     and d.size is distinct from _size;
  return null;
end;
$$;

create or replace function private.copy_file_sha256_to_document()
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
     and new.name like '%/%/%'
     and d.organization_id::text = pg_catalog.split_part(new.name, '/', 2)
     and d.content_sha256 is distinct from _sha256;
  return null;
end
$$;

create or replace function private.document_text_on_new_version()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _document record;
begin
  if not private.text_extraction_enabled()
     or (tg_op = 'UPDATE' and old.version is not distinct from new.version) then
    return null;
  end if;
  for _document in
    select d.id, d.organization_id from public.documents d
     where d.file_path = new.name
       and new.name like '%/%/%'
       and d.organization_id::text = pg_catalog.split_part(new.name, '/', 2)
  loop
    update public.document_texts t
       set object_version = new.version, state = 'pending', reason = null, updated_at = now()
     where t.document_id = _document.id;
    perform private.queue_text_extraction(_document.id, _document.organization_id, new.version);
  end loop;
  return null;
end
$$;
