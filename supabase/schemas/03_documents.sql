-- Documents: the organisation's files and their properties. The bytes live in the storage
-- bucket `documents` under `documents/{organization_id}/…` (04_storage.sql); `file_path` is
-- that object name. A document's recorded size and SHA-256 follow its stored file, copied in
-- the same transaction as the object's row, so a crash between the browser's two requests (the
-- file, then the row) can never leave new bytes with an old size.
--
-- Duplicates (issue 13): the SHA-256 of each document's file, so that the app can warn before
-- uploading a file the organisation already has. The embedded storage server computes it while
-- it writes the bytes and keeps it in the object's `metadata.sha256`. A hosted Supabase storage
-- server computes no SHA-256; there the app's own hash (computed with WebCrypto before the
-- upload, to ask `find_duplicate_documents`, and sent as the object's user metadata `sha256`)
-- is recorded instead. The storage server's own hash always wins where it has one. A client
-- that sends a wrong hash only misleads its own organisation's duplicate warnings.
--
-- Deleting a document moves it to the trash (15_trash.sql): the policies below hide trashed
-- documents from every list, counter and search, and the definer functions that read documents
-- leave them out (`deleted_at is null`).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.documents (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint documents_name_length check (char_length(name) between 1 and 500),
  -- One of the organisation's categories, by name (documents_category_fkey, 21_categories.sql).
  category text not null,
  expiry_date date,
  size bigint not null default 0 constraint documents_size_check check (size >= 0),
  -- Set to Active at upload; nothing changes it afterwards (specification §4).
  status text not null default 'Active' constraint documents_status_check check (status in ('Active')),
  -- Exactly one file directly inside the organisation's folder; never `.` or `..`.
  file_path text not null
    constraint documents_file_path_in_folder check (
      file_path ~ ('^documents/' || organization_id::text || '/[^/]+$')
      and split_part(file_path, '/', 3) not in ('.', '..')
      and char_length(file_path) <= 1024
    ),
  tags text[] not null default '{}'
    constraint documents_tags_check check (
      cardinality(tags) <= 100 and array_position(tags, null) is null
    ),
  description text constraint documents_description_length check (char_length(description) <= 10000),
  uploaded_by uuid default auth.uid() references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  upload_date timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The member who looks after this document; defaults to the uploader (10_renewals.sql).
  -- Reminders go to them (a deactivated one, or one who left, falls back to the admins).
  responsible_id uuid references public.user_profiles (id) on delete set null,
  -- Someone is renewing it: its reminders pause until it is renewed or the marker is removed.
  renewal_in_progress boolean not null default false,
  renewal_note text
    constraint documents_renewal_note_length check (char_length(renewal_note) <= 1000),
  -- The SHA-256 of the file, to find duplicates (see find_duplicate_documents below).
  content_sha256 text
    constraint documents_content_sha256_format check (content_sha256 ~ '^[0-9a-f]{64}$'),
  -- When and by whom the document was moved to the trash (15_trash.sql); null while in use.
  deleted_at timestamptz,
  deleted_by uuid references public.user_profiles (id) on delete set null
);

-- Far past or far future dates are typing mistakes (year 20026) that no calendar, e-mail or
-- browser date handles alike. Added when documents existed, which were left as they are: the
-- constraint holds for new values and stays NOT VALID.
alter table public.documents
  add constraint documents_expiry_date_range
    check (expiry_date between date '1900-01-01' and date '9999-12-31') not valid;

-- The number of documents in use per organisation, kept by the database (issue 13). The
-- documents page shows "Showing 1–50 of N documents" on every load; `count(*)` of an
-- organisation's documents grows with the library (36 ms of a 48 ms first page at 100,000 on
-- PGlite, against 12 ms at 100). The unfiltered total comes from this table in constant time
-- (search_documents); searches and filters still count their matches.
--
-- Kept by statement-level triggers over the transition tables, so a bulk change (delete 1,000,
-- restore from the trash, an import) updates each organisation's row once. On PostgreSQL two
-- transactions changing the documents of one organisation wait for each other at its row until
-- the first commits; changes are short, and other organisations never share a row.
create table private.document_counts (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  -- Documents not in the trash.
  live bigint not null default 0 constraint document_counts_live_check check (live >= 0)
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- Listing newest first (and the policy's organisation filter), renewals by expiry, the category
-- filter, and tag containment (`tags=cs.{…}`). Name search is a substring ilike over one
-- organisation's rows, which the organisation index already narrows; pg_trgm would help more but
-- is not available on every backend this runs on (PGlite loads no extensions).
create index documents_organization_id_created_at_idx
  on public.documents (organization_id, created_at desc);
create index documents_organization_id_expiry_date_idx
  on public.documents (organization_id, expiry_date);
create index documents_organization_id_category_idx
  on public.documents (organization_id, category);
create index documents_tags_idx on public.documents using gin (tags);
create index documents_uploaded_by_idx on public.documents (uploaded_by);

-- The document of a stored file, for the triggers below and for the consistency check.
create index documents_file_path_idx on public.documents (file_path);
create index documents_responsible_id_idx on public.documents (responsible_id);

-- One index per sort order of the list, each led by the organisation (the policy's filter) and
-- ending with the id that breaks ties, so a page is read in index order and stops at its end.
create index documents_organization_id_name_idx
  on public.documents (organization_id, name, id);
create index documents_organization_id_upload_date_idx
  on public.documents (organization_id, upload_date desc, id desc);
create index documents_organization_id_size_idx
  on public.documents (organization_id, size, id);
create index documents_organization_id_content_sha256_idx
  on public.documents (organization_id, content_sha256);

-- The trash of one organisation, newest first, and the scheduler's search for expired ones.
create index documents_trash_idx
  on public.documents (organization_id, deleted_at desc) where deleted_at is not null;
create index documents_deleted_at_idx on public.documents (deleted_at) where deleted_at is not null;
create index documents_deleted_by_idx on public.documents (deleted_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger documents_touch_updated_at
  before update on public.documents
  for each row execute function private.touch_updated_at();

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

-- A replaced file: its document's hash follows, in the same transaction (as its size does).
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

-- The counter of documents in use (private.document_counts above).

-- Adds each organisation's change in documents in use: `changes` (organization_id, delta).
create function private.add_document_counts(changes jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.document_counts as c (organization_id, live)
  select (x ->> 'organization_id')::uuid, (x ->> 'delta')::bigint
    from jsonb_array_elements(changes) x
   where (x ->> 'delta')::bigint > 0
  on conflict (organization_id) do update set live = c.live + excluded.live;
  -- Decreases only touch existing rows: an organisation being deleted has lost its row already.
  update private.document_counts c
     set live = c.live + (x ->> 'delta')::bigint
    from jsonb_array_elements(changes) x
   where c.organization_id = (x ->> 'organization_id')::uuid
     and (x ->> 'delta')::bigint < 0;
end
$$;

create function private.count_inserted_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.add_document_counts(coalesce(jsonb_agg(x), '[]'))
     from (select n.organization_id, count(*) as delta
             from new_documents n where n.deleted_at is null
            group by n.organization_id) x;
  return null;
end
$$;

create function private.count_updated_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.add_document_counts(coalesce(jsonb_agg(x), '[]'))
     from (select c.organization_id, sum(c.delta) as delta
             from (select n.organization_id, 1 as delta from new_documents n
                    where n.deleted_at is null
                   union all
                   select o.organization_id, -1 from old_documents o
                    where o.deleted_at is null) c
            group by c.organization_id
           having sum(c.delta) <> 0) x;
  return null;
end
$$;

create function private.count_deleted_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.add_document_counts(coalesce(jsonb_agg(x), '[]'))
     from (select o.organization_id, -count(*) as delta
             from old_documents o where o.deleted_at is null
            group by o.organization_id) x;
  return null;
end
$$;

create trigger documents_count_inserted
  after insert on public.documents
  referencing new table as new_documents
  for each statement execute function private.count_inserted_documents();

create trigger documents_count_updated
  after update on public.documents
  referencing old table as old_documents new table as new_documents
  for each statement execute function private.count_updated_documents();

create trigger documents_count_deleted
  after delete on public.documents
  referencing old table as old_documents
  for each statement execute function private.count_deleted_documents();

-- The organisation's documents in use, as the counter holds them.
create function private.live_document_count(organization uuid)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select c.live from private.document_counts c
                    where c.organization_id = organization), 0)
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
-- The specification does not restrict document actions by role: every active member may read,
-- upload and edit their organisation's documents in use. Nobody deletes a row through the API:
-- delete_documents moves documents to the trash, and only purge_documents and empty_trash
-- (admins) delete for ever (15_trash.sql).
alter table public.documents enable row level security;

create policy "members read their organisation's documents"
  on public.documents for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')) and deleted_at is null);

create policy "members add documents to their organisation"
  on public.documents for insert to authenticated
  with check (organization_id = (select private.caller_organization_id()));

create policy "members edit their organisation's documents"
  on public.documents for update to authenticated
  using (organization_id = (select private.caller_organization_id()) and deleted_at is null)
  with check (organization_id = (select private.caller_organization_id()) and deleted_at is null);

-- private.document_counts: none; only the triggers and functions above read and write it.
alter table private.document_counts enable row level security;

-- ============================================================================================
-- Functions
-- ============================================================================================
-- The dashboard counters, computed over the caller's organisation. Expiry dates are calendar
-- dates compared with today's date in UTC: overdue = before today; expiring soon = today up to
-- and including today + 30 days. Trashed documents are left out.
create type public.document_stats_result as (
  total integer,
  expiring_soon integer,
  overdue integer,
  categories integer
);

create function public.document_stats()
returns public.document_stats_result
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('viewer');
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

-- Documents of the caller's organisation whose category or any tag contains `term`,
-- case-insensitively (the "Related Documents" card). strpos, not ilike: `%` and `_` in the
-- term are plain characters.
create function public.count_documents_matching(term text)
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('viewer');
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

-- Actions on many selected documents at once (issue 13): set the category, add or remove tags,
-- set the expiry date (deleting is delete_documents, 15_trash.sql). Each is one function, one
-- statement, one transaction: every selected document changes, or (when one of them is not the
-- caller's to change) none does. Security invoker: the documents' row-level security and column
-- grants decide, exactly as for the same change made to one document with `update`. (So the
-- functions use no helper of the private schema, which the caller's role cannot reach.)
--
-- A selection is a list of document ids, each counted once: at least 1, at most 1000.
-- Tags are stored as the app stores them: trimmed, blanks dropped, each once
-- (case-insensitively), in the order given. Each returns how many documents it changed (all of
-- the selection).
create function public.set_documents_category(document_ids uuid[], new_category text)
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  update public.documents set category = new_category where id = any (_ids);
  get diagnostics _changed = row_count;
  if _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
exception
  when check_violation or not_null_violation then
    raise exception 'Choose one of the categories';
end
$$;

create function public.set_documents_expiry(document_ids uuid[], new_expiry_date date)
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  update public.documents set expiry_date = new_expiry_date where id = any (_ids);
  get diagnostics _changed = row_count;
  if _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
end
$$;

create function public.add_documents_tags(document_ids uuid[], tags_to_add text[])
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _tags text[] := array(
    select min(btrim(t)) from unnest(tags_to_add) with ordinality u (t, n)
     where btrim(t) <> '' group by lower(btrim(t)) order by min(n));
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  if cardinality(_tags) = 0 then
    raise exception 'Enter at least one tag';
  end if;
  update public.documents d
     set tags = d.tags || array(select t from unnest(_tags) t
                                where lower(t) <> all (array(select lower(x) from unnest(d.tags) x)))
   where d.id = any (_ids);
  get diagnostics _changed = row_count;
  if _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
exception
  when check_violation then
    raise exception 'A document can have at most 100 tags';
end
$$;

create function public.remove_documents_tags(document_ids uuid[], tags_to_remove text[])
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _tags text[] := array(select distinct lower(btrim(t)) from unnest(tags_to_remove) t
                         where btrim(t) <> '');
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  if cardinality(_tags) = 0 then
    raise exception 'Enter at least one tag';
  end if;
  update public.documents d
     set tags = array(select t from unnest(d.tags) with ordinality u (t, n)
                      where lower(t) <> all (_tags) order by n)
   where d.id = any (_ids);
  get diagnostics _changed = row_count;
  if _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Members write the document's properties; its organisation, file, uploader and timestamps are
-- fixed at upload (insert) or by the server. Documents are deleted through delete_documents (to
-- the trash) and for ever by the trash's functions only; deleted_at and deleted_by are written
-- by them alone.
revoke all on public.documents from anon, authenticated;
grant select on public.documents to authenticated;
grant insert (id, organization_id, name, category, expiry_date, size, status, file_path, tags,
  description, responsible_id, renewal_in_progress, renewal_note) on public.documents to authenticated;
grant update (name, category, expiry_date, size, tags, description, responsible_id,
  renewal_in_progress, renewal_note) on public.documents to authenticated;
revoke all on table private.document_counts from public, anon, authenticated;

revoke all on function private.copy_file_size_to_document() from public, anon, authenticated;
revoke all on function private.object_sha256(jsonb, jsonb) from public, anon, authenticated;
revoke all on function private.document_sha256_on_insert() from public, anon, authenticated;
revoke all on function private.copy_file_sha256_to_document() from public, anon, authenticated;
revoke all on function private.add_document_counts(jsonb) from public, anon, authenticated;
revoke all on function private.count_inserted_documents() from public, anon, authenticated;
revoke all on function private.count_updated_documents() from public, anon, authenticated;
revoke all on function private.count_deleted_documents() from public, anon, authenticated;
revoke all on function private.live_document_count(uuid) from public, anon, authenticated;

revoke all on function public.document_stats() from public, anon, authenticated;
revoke all on function public.count_documents_matching(text) from public, anon, authenticated;
revoke all on function public.find_duplicate_documents(text) from public, anon, authenticated;
revoke all on function public.set_documents_category(uuid[], text) from public, anon, authenticated;
revoke all on function public.set_documents_expiry(uuid[], date) from public, anon, authenticated;
revoke all on function public.add_documents_tags(uuid[], text[]) from public, anon, authenticated;
revoke all on function public.remove_documents_tags(uuid[], text[]) from public, anon, authenticated;
grant execute on function public.document_stats() to authenticated;
grant execute on function public.count_documents_matching(text) to authenticated;
grant execute on function public.find_duplicate_documents(text) to authenticated;
grant execute on function public.set_documents_category(uuid[], text) to authenticated;
grant execute on function public.set_documents_expiry(uuid[], date) to authenticated;
grant execute on function public.add_documents_tags(uuid[], text[]) to authenticated;
grant execute on function public.remove_documents_tags(uuid[], text[]) to authenticated;
