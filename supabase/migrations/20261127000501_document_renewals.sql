-- Renewals: who is responsible for a document, a "renewal in progress" marker that pauses its
-- reminders, and earlier versions of its file. Renewing a document (a new file and a new expiry
-- date in one step) keeps the previous file as a version instead of deleting it.
--
-- Versions are designed for every kind of change a later migration records (content edits,
-- property edits): each row is a snapshot of the document as it was, with the file it had
-- (kept in storage under its own name) and why it was superseded.

-- ============================================================================================
-- Tables
-- ============================================================================================
alter table public.documents
  -- The member who looks after this document; defaults to the uploader. Reminders go to them
  -- (a deactivated one, or one who left, falls back to the organisation's admins).
  add column responsible_id uuid references public.user_profiles (id) on delete set null,
  -- Someone is renewing it: its reminders pause until it is renewed or the marker is removed.
  add column renewal_in_progress boolean not null default false,
  add column renewal_note text
    constraint documents_renewal_note_length check (char_length(renewal_note) <= 1000),
  -- Far past or far future dates are typing mistakes (year 20026) that no calendar, e-mail or
  -- browser date handles alike; existing rows are left as they are.
  add constraint documents_expiry_date_range
    check (expiry_date between date '1900-01-01' and date '9999-12-31') not valid;

create table public.document_versions (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null references public.documents (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- 1, 2, 3… per document, in the order they were superseded.
  version_number integer not null constraint document_versions_number_check check (version_number >= 1),
  -- Why this version was superseded. Renew is the first; later changes add their own.
  change text not null
    constraint document_versions_change_check check (
      change in ('renewal', 'file_replacement', 'content_edit', 'properties_edit')
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
create index documents_responsible_id_idx on public.documents (responsible_id);
create index document_versions_organization_id_idx on public.document_versions (organization_id);
create index document_versions_file_path_idx on public.document_versions (file_path);
create index document_versions_uploaded_by_idx on public.document_versions (uploaded_by);
create index document_versions_replaced_by_idx on public.document_versions (replaced_by);

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
-- Policies
-- ============================================================================================
alter table public.document_versions enable row level security;

create policy "members read their organisation's document versions"
  on public.document_versions for select to authenticated
  using (organization_id = (select private.caller_organization_id()));

-- No insert, update or delete policies: versions are written by renew_document (and later
-- migrations' functions) and go with their document.

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Renew: the document gets a new file (already uploaded by the caller to `file_path` in the
-- organisation's folder) and a new expiry date in one step; the previous file stays as the
-- newest version. The marker is cleared, and a new expiry date starts a new reminder cycle.
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
  _size bigint;
  _next integer;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _document from public.documents d
  where d.id = renew_document.document_id and d.organization_id = _me.organization_id
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
    (_document.id, _document.organization_id, _next, 'renewal', _document.file_path,
     _document.size, _document.name, _document.expiry_date,
     jsonb_build_object('name', _document.name, 'category', _document.category,
                        'tags', to_jsonb(_document.tags), 'description', _document.description,
                        'expiry_date', _document.expiry_date),
     _document.uploaded_by, _document.upload_date, _me.id);

  -- upload_date and uploaded_by describe the current file; created_at stays the document's.
  update public.documents d
  set file_path = _path,
      size = _size,
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
grant insert (responsible_id, renewal_in_progress, renewal_note) on public.documents to authenticated;
grant update (responsible_id, renewal_in_progress, renewal_note) on public.documents to authenticated;

revoke all on public.document_versions from anon, authenticated;
grant select on public.document_versions to authenticated;

revoke all on function private.check_document_responsible() from public, anon, authenticated;
revoke all on function public.renew_document(uuid, text, date) from public, anon, authenticated;
grant execute on function public.renew_document(uuid, text, date) to authenticated;
