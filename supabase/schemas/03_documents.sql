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
  -- One of the organisation's categories, by name (021_document_categories.sql): a rename
  -- reaches every document through the foreign key below.
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
  deleted_by uuid references public.user_profiles (id) on delete set null,
  constraint documents_category_fkey foreign key (organization_id, category)
    references public.document_categories (organization_id, name) on update cascade
);

-- Far past or far future dates are typing mistakes (year 20026) that no calendar, e-mail or
-- browser date handles alike. Added when documents existed, which were left as they are: the
-- constraint holds for new values and stays NOT VALID.
alter table public.documents
  add constraint documents_expiry_date_range
    check (expiry_date between date '1900-01-01' and date '9999-12-31') not valid;

-- The number of documents in use per organisation and category, kept by the database (issue
-- 13; per category since issue 23, so that a member who may not view some categories gets the
-- sum over those they may view, still without counting rows). The
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
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- The category's name (no foreign key: a rename moves the documents, and with them their
  -- count, through the triggers below).
  category text not null,
  -- Documents not in the trash.
  live bigint not null default 0 constraint document_counts_live_check check (live >= 0),
  primary key (organization_id, category)
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
-- storage policies already keep every member inside their own organisation's folder). That
-- folder is storage.foldername's second, read without calling it (PL/pgSQL, about 14 µs a call
-- on PGlite): there is one when the name holds two `/`, and it is split_part(name, '/', 2).
-- A new upload's file is held by no document yet (the app inserts the row after it): whether
-- any document holds the name is asked first, since an UPDATE of documents opens its fifteen
-- indexes before it finds that no row matches (about 100 µs of an upload's insert on PGlite,
-- and again in its trial write). The update keeps its whole condition.
create function private.copy_file_size_to_document()
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

-- A replaced file: its document's hash follows, in the same transaction (as its size does);
-- whether a document holds the file is asked first, as there.
create function private.copy_file_sha256_to_document()
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

create trigger documents_sha256_follows_file
  after insert or update of metadata, user_metadata on storage.objects
  for each row
  when (new.bucket_id = 'documents')
  execute function private.copy_file_sha256_to_document();

-- The counter of documents in use (private.document_counts above).

-- Each trigger applies its changes by the statement that finds them, in one way: increases as an
-- upsert, decreases as an update of existing rows only (an organisation being deleted has lost
-- its rows already). No JSON list and no second security-definer call between them.
create function private.count_inserted_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.document_counts as d (organization_id, category, live)
  select n.organization_id, n.category, count(*)
    from new_documents n
   where n.deleted_at is null
   group by n.organization_id, n.category
  on conflict (organization_id, category) do update set live = d.live + excluded.live;
  return null;
end
$$;

-- Every update of documents runs this (an edit, a new file, a trash), and most change no count:
-- the sums that are not zero are applied, the decreases to existing rows only.
create function private.count_updated_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  with changes as (
    select c.organization_id, c.category, sum(c.delta)::bigint as delta
      from (select n.organization_id, n.category, 1 as delta from new_documents n
             where n.deleted_at is null
            union all
            select o.organization_id, o.category, -1 from old_documents o
             where o.deleted_at is null) c
     group by c.organization_id, c.category
    having sum(c.delta) <> 0
  ), decreased as (
    update private.document_counts d
       set live = d.live + c.delta
      from changes c
     where d.organization_id = c.organization_id and d.category = c.category and c.delta < 0
  )
  insert into private.document_counts as d (organization_id, category, live)
  select c.organization_id, c.category, c.delta from changes c where c.delta > 0
  on conflict (organization_id, category) do update set live = d.live + excluded.live;
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
  update private.document_counts d
     set live = d.live - c.removed
    from (select o.organization_id, o.category, count(*) as removed
            from old_documents o
           where o.deleted_at is null
           group by o.organization_id, o.category) c
   where d.organization_id = c.organization_id and d.category = c.category;
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

-- The organisation's documents in use outside the categories `hidden`, as the counter holds
-- them.
create function private.live_document_count(organization uuid, hidden text[] default '{}')
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select sum(c.live) from private.document_counts c
                    where c.organization_id = organization and c.category <> all (hidden)), 0)::bigint
$$;

-- Adding a document to a category, or moving one into another, needs the right to edit in it,
-- and the category may not be retired: refused here with the words the app shows (the
-- policies below refuse too, with PostgreSQL's). The server's own work (an import, with no
-- member in the request) and a category's rename (a cascade) pass.
create function private.check_document_category()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if pg_catalog.current_setting('steward.category_rename', true) = 'on'
     or (tg_op = 'UPDATE' and new.category = old.category) then
    return new;
  end if;
  if exists (select 1 from public.document_categories c
              where c.organization_id = new.organization_id and c.name = new.category
                and c.retired_at is not null) then
    raise exception 'This category is retired' using errcode = '23514';
  end if;
  if (select auth.uid()) is not null
     and new.organization_id = private.caller_organization_id('viewer')
     and new.category = any (private.caller_uneditable_categories()) then
    raise exception 'You do not have access to this category' using errcode = '42501';
  end if;
  return new;
end
$$;

create trigger documents_category_checked
  before insert on public.documents
  for each row
  when (pg_catalog.current_setting('role', true) = 'authenticated')
  execute function private.check_document_category();

-- An update only when the category changes: the app's edit sends the category it had, and a
-- call that returns at once still cost a security-definer function's entry and exit.
create trigger documents_category_checked_on_update
  before update of category on public.documents
  for each row
  when (pg_catalog.current_setting('role', true) = 'authenticated'
        and old.category is distinct from new.category)
  execute function private.check_document_category();

-- Whether `user_id` (an active member of the document's organisation) may view, or edit, the
-- document `document_id`: the one question other features ask about a given member (links,
-- mail, reminders, feeds, "who looked"). The same rule as the policies (member_category_access).
-- A document in the trash is still answered by its category.
create function private.member_may_view_document(user_id uuid, document_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.documents d
      join private.member_category_access(member_may_view_document.user_id) a
        on a.name = d.category
      join public.user_profiles p on p.id = member_may_view_document.user_id
     where d.id = member_may_view_document.document_id
       and d.organization_id = p.organization_id
       and a.can_view)
$$;

create function private.member_may_edit_document(user_id uuid, document_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.documents d
      join private.member_category_access(member_may_edit_document.user_id) a
        on a.name = d.category
      join public.user_profiles p on p.id = member_may_edit_document.user_id
     where d.id = member_may_edit_document.document_id
       and d.organization_id = p.organization_id
       and a.can_edit)
$$;

-- The category of a document (in use or in the trash), for the policies of the tables that
-- hang off documents (texts, history) and of its stored files; null when there is none.
create function private.document_category(document_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select d.category from public.documents d where d.id = document_category.document_id
$$;

-- Whether the stored object `name` is the file, or an earlier version's file, of a document
-- in one of the categories `categories` (the storage policies' question).
create function private.file_in_categories(name text, categories text[])
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.documents d
                  where d.file_path = file_in_categories.name and d.category = any (categories))
      or exists (select 1 from public.document_versions v
                   join public.documents d on d.id = v.document_id
                  where v.file_path = file_in_categories.name and d.category = any (categories));
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Every active member may read the documents in use of the categories they may view, and
-- members but Viewers add to and edit those of the categories they may edit
-- (021_document_categories.sql). Nobody deletes a row through the API:
-- delete_documents moves documents to the trash, and only purge_documents and empty_trash
-- (admins) delete for ever (15_trash.sql).
alter table public.documents enable row level security;

create policy "members read their organisation's documents"
  on public.documents for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('viewer'))
    and deleted_at is null
    and category <> all ((select private.caller_hidden_categories())::text[])
  );

create policy "members add documents to their organisation"
  on public.documents for insert to authenticated
  with check (
    organization_id = (select private.caller_organization_id())
    and category <> all ((select private.caller_uneditable_categories())::text[])
  );

create policy "members edit their organisation's documents"
  on public.documents for update to authenticated
  using (
    organization_id = (select private.caller_organization_id())
    and deleted_at is null
    and category <> all ((select private.caller_uneditable_categories())::text[])
  )
  with check (
    organization_id = (select private.caller_organization_id())
    and deleted_at is null
    and category <> all ((select private.caller_uneditable_categories())::text[])
  );

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
  _hidden text[] := private.caller_hidden_categories();
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
  where d.organization_id = _organization_id and d.deleted_at is null
    and d.category <> all (_hidden);
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
  _hidden text[] := private.caller_hidden_categories();
  _needle text := lower(coalesce(term, ''));
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  return (
    select count(*)::integer
    from public.documents d
    where d.organization_id = _organization_id and d.deleted_at is null
      and d.category <> all (_hidden)
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
  when foreign_key_violation or not_null_violation then
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
revoke all on function private.count_inserted_documents() from public, anon, authenticated;
revoke all on function private.count_updated_documents() from public, anon, authenticated;
revoke all on function private.count_deleted_documents() from public, anon, authenticated;
revoke all on function private.live_document_count(uuid, text[]) from public, anon, authenticated;
revoke all on function private.check_document_category() from public, anon, authenticated;
revoke all on function private.member_may_view_document(uuid, uuid) from public, anon, authenticated;
revoke all on function private.member_may_edit_document(uuid, uuid) from public, anon, authenticated;
revoke all on function private.document_category(uuid) from public, anon, authenticated;
revoke all on function private.file_in_categories(text, text[]) from public, anon, authenticated;
-- The policies of texts, history and stored files call these as the signed-in role.
grant execute on function private.document_category(uuid) to authenticated;
grant execute on function private.file_in_categories(text, text[]) to authenticated;

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
