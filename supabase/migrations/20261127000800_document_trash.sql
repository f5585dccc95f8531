-- The trash (issue 15): deleting a document moves it to its organisation's trash, with its file,
-- its versions and everything else it had. Row-level security hides trashed documents from
-- every list, counter and search; the functions here list the trash, restore from it, and
-- delete for ever (admins, or the server's scheduler once a document has been in the trash
-- longer than `private.trash_settings`' retention, steward.toml `[trash] retention`).
--
-- Files are removed only when a document is deleted for ever: its storage rows go in the same
-- transaction as its row, and a `storage.remove-files` job then removes the bytes (a crash in
-- between leaves unreferenced bytes, which the storage server's start-up sweep removes too).
-- Until then trashed files keep counting towards the organisation's storage quota.
--
-- The definer functions of earlier migrations that read documents are replaced below with the
-- one change `deleted_at is null`: the dashboard's counters, "Related Documents", e-mailing,
-- Renew, reminders and the calendar feed leave trashed documents out.

-- ============================================================================================
-- Tables
-- ============================================================================================
alter table public.documents
  -- When and by whom the document was moved to the trash; null while it is in use.
  add column deleted_at timestamptz,
  add column deleted_by uuid references public.user_profiles (id) on delete set null;

-- One row: how long a document stays in the trash. The embedded server writes steward.toml's
-- `[trash] retention` here at start-up; on a hosted project, update it with SQL.
create table private.trash_settings (
  id boolean primary key default true constraint trash_settings_one_row check (id),
  retention interval not null default interval '30 days'
    constraint trash_settings_retention_positive check (retention > interval '0'),
  updated_at timestamptz not null default now()
);
insert into private.trash_settings default values;

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- The trash of one organisation, newest first, and the scheduler's search for expired ones.
create index documents_trash_idx
  on public.documents (organization_id, deleted_at desc) where deleted_at is not null;
create index documents_deleted_at_idx on public.documents (deleted_at) where deleted_at is not null;
create index documents_deleted_by_idx on public.documents (deleted_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================

-- Deletes trashed documents of one organisation for ever: their rows (their versions, texts
-- and reminder log go with them), their files' storage rows, and queues the removal of the
-- files' bytes. Returns how many documents went. Documents not in the trash are left alone.
create function private.purge_documents(organization_id uuid, document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _ids uuid[];
  _paths text[];
  _versions text[];
begin
  select coalesce(array_agg(d.id), '{}') into _ids
  from (
    select d.id from public.documents d
    where d.organization_id = purge_documents.organization_id
      and d.id = any (purge_documents.document_ids)
      and d.deleted_at is not null
    order by d.id
    for update
  ) d;
  if cardinality(_ids) = 0 then
    return 0;
  end if;
  select coalesce(array_agg(p.file_path), '{}') into _paths
  from (
    select d.file_path from public.documents d where d.id = any (_ids)
    union
    select v.file_path from public.document_versions v where v.document_id = any (_ids)
  ) p;
  delete from public.documents d where d.id = any (_ids);
  -- Storage refuses a direct delete of its rows unless asked to (as hosted Storage does): the
  -- bytes are removed by the job below, so nothing is left behind.
  perform set_config('storage.allow_delete_query', 'true', true);
  -- A file another document or version still names stays (none should, but a copy could).
  with removed as (
    delete from storage.objects o
    where o.bucket_id = 'documents' and o.name = any (_paths)
      and not exists (select 1 from public.documents d where d.file_path = o.name)
      and not exists (select 1 from public.document_versions v where v.file_path = o.name)
    returning o.version
  )
  select coalesce(array_agg(r.version) filter (where r.version is not null), '{}')
  into _versions from removed r;
  if cardinality(_versions) > 0 then
    perform private.enqueue_job('storage.remove-files',
                                jsonb_build_object('versions', to_jsonb(_versions)),
                                purge_documents.organization_id);
  end if;
  return cardinality(_ids);
end
$$;

-- The scheduler's purge: documents that have been in the trash longer than the retention at
-- `at`, at most `batch` of them per run (the next run takes the rest). Returns how many went.
create function private.purge_expired_trash(at timestamptz, batch integer default 1000)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _retention interval := (select s.retention from private.trash_settings s);
  _organization record;
  _purged integer := 0;
begin
  for _organization in
    select d.organization_id, array_agg(d.id) as ids
    from (
      select d.organization_id, d.id from public.documents d
      where d.deleted_at is not null and d.deleted_at <= purge_expired_trash.at - _retention
      order by d.deleted_at
      limit greatest(purge_expired_trash.batch, 1)
    ) d
    group by d.organization_id
  loop
    _purged := _purged + private.purge_documents(_organization.organization_id, _organization.ids);
  end loop;
  return _purged;
end
$$;

-- The name a restored document takes: its own, or when a document in use already has it,
-- "{name} (restored){extension}", then "(restored 2)"… so that both stay, told apart.
create function private.restored_document_name(organization_id uuid, name text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _parts text[] := regexp_match(restored_document_name.name, '^(.*[^.])(\.[^.]{1,20})$');
  _base text := left(coalesce(_parts[1], restored_document_name.name), 470);
  _extension text := coalesce(_parts[2], '');
  _candidate text := restored_document_name.name;
  _n integer := 1;
begin
  while exists (
    select 1 from public.documents d
    where d.organization_id = restored_document_name.organization_id
      and d.deleted_at is null and lower(d.name) = lower(_candidate)
  ) loop
    _candidate := _base || ' (restored' || case when _n > 1 then ' ' || _n else '' end || ')'
                  || _extension;
    _n := _n + 1;
  end loop;
  return _candidate;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Members see and edit only documents in use; the trash is reached through list_trash and the
-- functions below. Nobody deletes a row through the API: delete_documents moves documents to
-- the trash, and only purge_documents and empty_trash (admins) delete for ever.
-- private.trash_settings: none; only the server, as the owner, reads and writes it.
alter table private.trash_settings enable row level security;

drop policy "members read their organisation's documents" on public.documents;
drop policy "members edit their organisation's documents" on public.documents;
drop policy "members delete their organisation's documents" on public.documents;

create policy "members read their organisation's documents"
  on public.documents for select to authenticated
  using (organization_id = (select private.caller_organization_id()) and deleted_at is null);

create policy "members edit their organisation's documents"
  on public.documents for update to authenticated
  using (organization_id = (select private.caller_organization_id()) and deleted_at is null)
  with check (organization_id = (select private.caller_organization_id()) and deleted_at is null);

-- The versions of a trashed document are out of sight with it.
drop policy "members read their organisation's document versions" on public.document_versions;
create policy "members read their organisation's document versions"
  on public.document_versions for select to authenticated
  using (
    organization_id = (select private.caller_organization_id())
    and exists (select 1 from public.documents d where d.id = document_id)
  );

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Moves documents of the caller's organisation to the trash (the app's Delete, for one or
-- many). Every one of them, or (when one is not found, or already in the trash) none.
drop function public.delete_documents(uuid[]);
create function public.delete_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _ids uuid[] := array(select distinct x from unnest(delete_documents.document_ids) x
                       where x is not null);
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  update public.documents d
     set deleted_at = now(), deleted_by = auth.uid()
   where d.id = any (_ids) and d.organization_id = _organization_id and d.deleted_at is null;
  get diagnostics _changed = row_count;
  if _organization_id is null or _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
end
$$;

-- The caller's organisation's trash, most recently deleted first, with who deleted each
-- document and when it will be deleted for ever.
create type public.trash_entry as (
  id uuid,
  name text,
  category text,
  size bigint,
  file_path text,
  deleted_at timestamptz,
  deleted_by uuid,
  deleted_by_name text,
  purge_at timestamptz
);

create function public.list_trash()
returns setof public.trash_entry
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _retention interval := (select s.retention from private.trash_settings s);
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  return query
  select d.id, d.name, d.category, d.size, d.file_path, d.deleted_at, d.deleted_by,
         case when p.id is not null then private.display_name(p) end,
         d.deleted_at + _retention
  from public.documents d
  left join public.user_profiles p on p.id = d.deleted_by
  where d.organization_id = _organization_id and d.deleted_at is not null
  order by d.deleted_at desc, d.id;
end
$$;

-- Any member restores documents from the trash. A restored document whose name a document in
-- use has taken meanwhile gets "(restored)" in its name. Every one of them, or none.
create function public.restore_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _ids uuid[] := array(select distinct x from unnest(restore_documents.document_ids) x
                       where x is not null);
  _document record;
  _changed integer := 0;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  for _document in
    select d.id, d.name from public.documents d
    where d.id = any (_ids) and d.organization_id = _organization_id and d.deleted_at is not null
    order by d.deleted_at, d.id
    for update
  loop
    update public.documents d
       set deleted_at = null, deleted_by = null,
           name = private.restored_document_name(_organization_id, _document.name)
     where d.id = _document.id;
    _changed := _changed + 1;
  end loop;
  if _organization_id is null or _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found in the trash';
  end if;
  return _changed;
end
$$;

-- Admins delete documents in the trash for ever, with their files and versions.
create function public.purge_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('admin');
  _ids uuid[] := array(select distinct x from unnest(purge_documents.document_ids) x
                       where x is not null);
  _purged integer;
begin
  if _organization_id is null and private.caller_organization_id() is not null then
    raise exception 'Only admins can delete documents for ever';
  end if;
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  _purged := private.purge_documents(_organization_id, _ids);
  if _organization_id is null or _purged <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found in the trash';
  end if;
  return _purged;
end
$$;

-- Admins empty their organisation's trash. Returns how many documents went.
create function public.empty_trash()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('admin');
begin
  if _organization_id is null then
    if private.caller_organization_id() is not null then
      raise exception 'Only admins can delete documents for ever';
    end if;
    raise exception 'No organization found';
  end if;
  return private.purge_documents(
    _organization_id,
    array(select d.id from public.documents d
          where d.organization_id = _organization_id and d.deleted_at is not null));
end
$$;

-- The definer functions that read documents, with trashed documents left out.
create or replace function public.document_stats()
returns public.document_stats_result
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _today date := (now() at time zone 'UTC')::date;
  _result public.document_stats_result;
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  select
    count(*)::integer,
    (count(*) filter (where d.expiry_date between _today and _today + 30))::integer,
    (count(*) filter (where d.expiry_date < _today))::integer,
    (count(distinct d.category))::integer
  into _result
  from public.documents d
  where d.organization_id = _organization_id and d.deleted_at is null;
  return _result;
end
$$;

create or replace function public.count_documents_matching(term text)
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _needle text := lower(coalesce(term, ''));
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  return (
    select count(*)::integer
    from public.documents d
    where d.organization_id = _organization_id and d.deleted_at is null
      and (
        strpos(lower(d.category), _needle) > 0
        or exists (select 1 from unnest(d.tags) t (tag) where strpos(lower(t.tag), _needle) > 0)
      )
  );
end
$$;

create or replace function public.send_documents_email(
  recipients text[],
  subject text,
  message text,
  document_ids uuid[],
  as_links boolean
)
returns public.mail_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _organization public.organizations;
  _recipients text[];
  _bad text;
  _subject text := private.trim_whitespace(coalesce(send_documents_email.subject, ''));
  _message text := nullif(private.trim_whitespace(send_documents_email.message), '');
  _ids uuid[];
  _documents jsonb;
  _found integer;
  _id uuid;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _organization from public.organizations o where o.id = _me.organization_id;

  select coalesce(array_agg(distinct a), '{}') into _recipients
  from (
    select private.trim_whitespace(r) as a from unnest(send_documents_email.recipients) r
  ) t
  where a is not null and a <> '';
  if cardinality(_recipients) = 0 then
    raise exception 'Please enter at least one recipient email address';
  end if;
  select a into _bad from unnest(_recipients) a where not private.is_email_address(a) limit 1;
  if _bad is not null then
    raise exception 'Invalid email address: %', left(_bad, 254);
  end if;
  if cardinality(_recipients) > 50 then
    raise exception 'An e-mail can have at most 50 recipients';
  end if;
  if _subject = '' then
    raise exception 'Subject is required';
  end if;
  if char_length(_subject) > 300 then
    raise exception 'Subject must be at most 300 characters';
  end if;
  if char_length(_message) > 5000 then
    raise exception 'Message must be at most 5000 characters';
  end if;

  select coalesce(array_agg(distinct i), '{}') into _ids
  from unnest(send_documents_email.document_ids) i where i is not null;
  if cardinality(_ids) = 0 then
    raise exception 'Select at least one document';
  end if;
  if cardinality(_ids) > 100 then
    raise exception 'An e-mail can carry at most 100 documents';
  end if;
  select count(*)::integer,
         coalesce(jsonb_agg(jsonb_build_object('document_id', d.id, 'name', d.name,
                                               'file_path', d.file_path, 'size', d.size)
                            order by d.name), '[]'::jsonb)
  into _found, _documents
  from public.documents d
  where d.id = any (_ids) and d.organization_id = _me.organization_id
    and d.deleted_at is null;
  if _found <> cardinality(_ids) then
    raise exception 'Document not found';
  end if;

  -- Members send documents to people outside the organisation: a bound on how many, so that
  -- a stolen session cannot turn the installation's SMTP account into a mailing list.
  if (select count(*) from public.outbox_messages m
      where m.organization_id = _me.organization_id and m.kind = 'documents'
        and m.created_at > now() - interval '1 hour') >= 100 then
    raise exception 'Too many e-mails sent in the last hour; please try again later';
  end if;

  _id := private.queue_mail(
    _me.organization_id, 'documents', _recipients, _subject,
    jsonb_build_object(
      'sender_name', private.display_name(_me),
      'sender_email', _me.email,
      'organization_name', _organization.name,
      'message', _message,
      'as_links', coalesce(send_documents_email.as_links, false)),
    _documents, _me.id);
  return (_id, (select m.status from public.outbox_messages m where m.id = _id))::public.mail_result;
end
$$;

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
  _size bigint;
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

create or replace function private.due_reminder_runs(at timestamptz)
returns table (organization_id uuid, local_date date)
language sql
stable
security definer
set search_path = ''
as $$
  select o.id, l.local_date
  from public.organizations o
  cross join lateral private.reminder_settings_of(o.id) s
  cross join lateral (
    select (due_reminder_runs.at at time zone s.time_zone) as local_time,
           (due_reminder_runs.at at time zone s.time_zone)::date as local_date
  ) l
  where extract(hour from l.local_time) >= s.send_hour
    and not exists (
      select 1 from private.reminder_runs r
      where r.organization_id = o.id and r.local_date = l.local_date
    )
    and exists (
      select 1 from public.documents d
      where d.organization_id = o.id
        and d.expiry_date <= l.local_date + coalesce((select max(x) from unnest(s.days_before) x), -1)
        and (s.remind_overdue or d.expiry_date >= l.local_date)
        and not d.renewal_in_progress
        and d.deleted_at is null
    )
$$;

create or replace function private.run_reminders(organization_id uuid, local_date date)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _settings public.reminder_settings := private.reminder_settings_of(run_reminders.organization_id);
  _organization_name text;
  _recipient record;
  _digests integer := 0;
begin
  insert into private.reminder_runs as r (organization_id, local_date)
  values (run_reminders.organization_id, run_reminders.local_date)
  on conflict do nothing;
  if not found then
    return 0;
  end if;
  select o.name into _organization_name from public.organizations o
  where o.id = run_reminders.organization_id;

  -- The documents whose threshold fires now: logged once per cycle. (Qualified with pg_temp:
  -- the temporary schema must never stand in for another relation of this function.)
  create temporary table _fired (
    id uuid, name text, category text, expiry_date date, responsible_id uuid,
    days_left integer, threshold text
  ) on commit drop;
  with due as (
    select d.id, d.name, d.category, d.expiry_date, d.responsible_id,
           d.expiry_date - run_reminders.local_date as days_left,
           private.reminder_threshold(d.expiry_date - run_reminders.local_date,
                                      _settings.days_before, _settings.remind_overdue) as threshold
    from public.documents d
    where d.organization_id = run_reminders.organization_id
      and d.expiry_date is not null
      and not d.renewal_in_progress
      and d.deleted_at is null
  ), logged as (
    insert into private.reminder_log as l
      (document_id, expiry_date, threshold, organization_id, local_date)
    select due.id, due.expiry_date, due.threshold, run_reminders.organization_id,
           run_reminders.local_date
    from due where due.threshold is not null
    on conflict do nothing
    returning l.document_id
  )
  insert into pg_temp._fired
  select due.* from due join logged on logged.document_id = due.id;

  -- Who hears of each: the responsible member while an active member of the organisation
  -- (else the admins), the admins, or both; never someone who turned reminders off.
  for _recipient in
    with members as (
      select p.id, p.email, p.full_name, p.role, p.email_reminders
      from public.user_profiles p
      where p.organization_id = run_reminders.organization_id and p.is_active
    ), admins as (
      select m.id from members m where m.role in ('admin', 'master_admin')
    ), addressed as (
      select f.id as document_id, m.id as user_id
      from pg_temp._fired f join members m on m.id = f.responsible_id
      where _settings.recipients in ('responsible', 'both')
      union
      select f.id, a.id
      from pg_temp._fired f cross join admins a
      where _settings.recipients in ('admins', 'both')
         or (_settings.recipients = 'responsible'
             and not exists (select 1 from members m where m.id = f.responsible_id))
    )
    select m.id, m.email, m.full_name,
           count(*)::integer as total,
           (count(*) filter (where f.days_left < 0))::integer as overdue,
           (select jsonb_agg(jsonb_build_object(
                     'id', x.id, 'name', x.name, 'category', x.category,
                     'expiry_date', x.expiry_date, 'days_left', x.days_left,
                     'threshold', x.threshold) order by x.expiry_date, x.name)
            from (
              select f2.* from addressed a2 join pg_temp._fired f2 on f2.id = a2.document_id
              where a2.user_id = m.id order by f2.expiry_date, f2.name limit 100
            ) x) as items
    from addressed a
    join members m on m.id = a.user_id and m.email_reminders
    join pg_temp._fired f on f.id = a.document_id
    where private.is_email_address(m.email)
    group by m.id, m.email, m.full_name
  loop
    if private.queue_mail(
         run_reminders.organization_id, 'reminders', array[_recipient.email],
         format('Renewals at %s: %s', _organization_name, array_to_string(array[
           case when _recipient.overdue > 0 then _recipient.overdue || ' overdue' end,
           case when _recipient.total > _recipient.overdue
                then (_recipient.total - _recipient.overdue) || ' expiring soon' end], ', ')),
         jsonb_build_object(
           'recipient_name', coalesce(nullif(private.trim_whitespace(_recipient.full_name), ''),
                                      _recipient.email),
           'organization_name', _organization_name,
           'local_date', run_reminders.local_date,
           'total', _recipient.total,
           'overdue', _recipient.overdue,
           'items', _recipient.items),
         '[]'::jsonb, null,
         format('reminders:%s:%s', _recipient.id, run_reminders.local_date)) is not null then
      _digests := _digests + 1;
    end if;
  end loop;

  drop table pg_temp._fired;
  update private.reminder_runs r set digests = _digests
  where r.organization_id = run_reminders.organization_id and r.local_date = run_reminders.local_date;
  return _digests;
end
$$;

create or replace function public.calendar_feed(token text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  _feed public.calendar_feeds;
  _settings public.reminder_settings;
  _result jsonb;
begin
  select f.* into _feed
  from private.calendar_feed_tokens t
  join public.calendar_feeds f on f.id = t.feed_id
  join public.user_profiles p
    on p.id = f.user_id and p.organization_id = f.organization_id and p.is_active
  where t.token_hash = private.hash_invitation_token(left(coalesce(calendar_feed.token, ''), 200));
  if not found then
    return null;
  end if;
  update public.calendar_feeds f set last_fetched_at = now() where f.id = _feed.id;
  _settings := private.reminder_settings_of(_feed.organization_id);
  select jsonb_build_object(
    'organization_name', o.name,
    'scope', _feed.scope,
    -- The alarm of each event: the first (largest) reminder threshold, if any.
    'alarm_days_before', (select max(d) from unnest(_settings.days_before) d),
    'events', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', d.id, 'name', d.name, 'category', d.category,
               'expiry_date', d.expiry_date, 'description', d.description,
               'renewal_in_progress', d.renewal_in_progress,
               'responsible_name', private.display_name(r),
               'updated_at', d.updated_at)
             order by d.expiry_date, d.id)
      from public.documents d
      left join public.user_profiles r on r.id = d.responsible_id
      where d.organization_id = _feed.organization_id
        and d.expiry_date is not null
        and d.deleted_at is null
        and (_feed.scope = 'all' or d.responsible_id = _feed.user_id)
    ), '[]'::jsonb))
  into _result
  from public.organizations o where o.id = _feed.organization_id;
  return _result;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Documents are deleted through delete_documents (to the trash) and for ever by the functions
-- above only; deleted_at and deleted_by are written by them alone.
revoke delete on public.documents from authenticated;
revoke all on private.trash_settings from public, anon, authenticated, service_role;

revoke all on function private.purge_documents(uuid, uuid[]) from public, anon, authenticated;
revoke all on function private.purge_expired_trash(timestamptz, integer) from public, anon, authenticated;
revoke all on function private.restored_document_name(uuid, text) from public, anon, authenticated;
revoke all on function public.delete_documents(uuid[]) from public, anon, authenticated;
revoke all on function public.list_trash() from public, anon, authenticated;
revoke all on function public.restore_documents(uuid[]) from public, anon, authenticated;
revoke all on function public.purge_documents(uuid[]) from public, anon, authenticated;
revoke all on function public.empty_trash() from public, anon, authenticated;
grant execute on function public.delete_documents(uuid[]) to authenticated;
grant execute on function public.list_trash() to authenticated;
grant execute on function public.restore_documents(uuid[]) to authenticated;
grant execute on function public.purge_documents(uuid[]) to authenticated;
grant execute on function public.empty_trash() to authenticated;
