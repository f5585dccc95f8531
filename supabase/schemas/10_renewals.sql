-- Renewals: who is responsible for a document (documents.responsible_id), a "renewal in
-- progress" marker that pauses its reminders (documents.renewal_in_progress and
-- renewal_note), and Renew itself: a new file and a new expiry date in one step, which keeps
-- the previous file as a version (09_versions.sql) instead of deleting it.

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The responsible member defaults to the uploader and must be a member of the document's
-- organisation; the note goes with the marker.
create function private.check_document_responsible()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.responsible_id := coalesce(new.responsible_id, new.uploaded_by);
  end if;
  if new.responsible_id is not null
     and (tg_op = 'INSERT' or new.responsible_id is distinct from old.responsible_id)
     and not exists (
       select 1 from public.user_profiles p
       where p.id = new.responsible_id and p.organization_id = new.organization_id and p.is_active
     ) then
    raise exception 'The responsible member must be an active member of the organization'
      using errcode = '23514';
  end if;
  if not new.renewal_in_progress then
    new.renewal_note := null;
  else
    new.renewal_note := nullif(private.trim_whitespace(new.renewal_note), '');
  end if;
  return new;
end
$$;

create trigger documents_check_responsible
  before insert or update of responsible_id, renewal_in_progress, renewal_note on public.documents
  for each row execute function private.check_document_responsible();

-- ============================================================================================
-- Functions
-- ============================================================================================
-- Renew: the document gets a new file (already uploaded by the caller to `file_path` in the
-- organisation's folder) and a new expiry date in one step; the previous file stays as the
-- newest version. The new file is claimed first (claim_new_document_file, 09_versions.sql), and
-- the document's size and SHA-256 follow it. The marker is cleared, and a new expiry date
-- starts a new reminder cycle. A document in the trash is not found.
create function public.renew_document(document_id uuid, file_path text, expiry_date date)
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
  if not found or not private.member_may_edit_document(_me.id, _document.id) then
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

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function private.check_document_responsible() from public, anon, authenticated;
revoke all on function public.renew_document(uuid, text, date) from public, anon, authenticated;
grant execute on function public.renew_document(uuid, text, date) to authenticated;
