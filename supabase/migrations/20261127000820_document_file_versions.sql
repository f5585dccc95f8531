-- Versions of every change of a document's file (issue 15), extending Renew's versions
-- (migration …0501): editing a text file's content and replacing the file keep the previous
-- file as a version too, and restoring a version makes its file current again as a new change
-- (the file it replaces becomes a version in turn). Each new file is uploaded first under a new
-- name in the organisation's folder; the functions make it the document's file in one
-- transaction. The history records each change (migration …0810's trigger reads the version a
-- change kept).

-- ============================================================================================
-- Tables
-- ============================================================================================
alter table public.document_versions drop constraint document_versions_change_check;
alter table public.document_versions add constraint document_versions_change_check check (
  change in ('renewal', 'file_replacement', 'content_edit', 'properties_edit', 'version_restore')
);

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
revoke all on function private.supersede_document_file(uuid, text, text) from public, anon, authenticated;
revoke all on function public.replace_document_file(uuid, text, text) from public, anon, authenticated;
revoke all on function public.restore_document_version(uuid, text) from public, anon, authenticated;
grant execute on function public.replace_document_file(uuid, text, text) to authenticated;
grant execute on function public.restore_document_version(uuid, text) to authenticated;
