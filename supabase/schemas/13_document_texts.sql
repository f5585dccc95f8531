-- The text of every document, for searching inside files (issue 13).
--
-- A document's file is read in the background: at upload, and again whenever its stored object
-- changes (a new `storage.objects.version`), a job `document.extract-text` is queued for that
-- document and that version (private.enqueue_job, deduplicated, so each version is read once).
-- The embedded server's job runner extracts the text in its worker pool (server/search/) and
-- records it here; `state` tells the app whether the text is being read ("Indexing…"), ready, or
-- not available and why.
--
-- Each document also gets its full-text search vector here, kept current by the database:
-- `search_vector` holds the extracted text (weight C), parsed once per version, followed by the
-- document's name and tags (A), category and description (B), which are replaced whenever they
-- change: the text's part is kept by its weight (`ts_filter(…, '{c}')`), so an edited name never
-- re-parses a long text. One GIN index on it serves every search (14_search.sql).
--
-- On hosted Supabase no server runs the jobs: `private.text_extraction_settings.enabled` stays
-- false there, no job is queued, and documents say "Text not available" with the reason below;
-- search still covers name, tags, category and description. The embedded server turns
-- extraction on at start-up (`private.start_text_extraction_batch()`), which also queues every
-- existing document whose text was never read: a library whose text was never read is indexed
-- in the background after the first start.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- One row. `enabled` is set by the embedded server at every start; nothing else writes it.
create table private.text_extraction_settings (
  id boolean primary key default true constraint text_extraction_settings_one_row check (id),
  enabled boolean not null default false,
  updated_at timestamptz not null default now()
);
insert into private.text_extraction_settings default values;

create table public.document_texts (
  document_id uuid primary key references public.documents (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- The stored object version whose text this is (or is being read): storage.objects.version.
  object_version text,
  -- pending: queued or being read ("Indexing…"); ready: `content` holds the text; failed: the
  -- last attempt failed and another follows later (or all attempts failed); unavailable: the
  -- file holds no text that can be read (corrupt, encrypted, empty, a type without text).
  state text not null default 'pending'
    constraint document_texts_state_check check (state in ('pending', 'ready', 'failed', 'unavailable')),
  -- Why the text is not available, in words for the person who uploaded it.
  reason text constraint document_texts_reason_length check (char_length(reason) <= 500),
  content text not null default ''
    constraint document_texts_content_length check (char_length(content) <= 1000000),
  -- Whether `content` holds only the first part of the text (the file passed a limit).
  truncated boolean not null default false,
  -- Pages read (PDF), or null.
  pages integer constraint document_texts_pages_check check (pages >= 0),
  search_vector tsvector not null default ''::tsvector,
  extracted_at timestamptz,
  updated_at timestamptz not null default now()
);
alter table public.document_texts alter column search_vector set storage external;

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index document_texts_organization_id_state_idx
  on public.document_texts (organization_id, state);
-- Every search of the text, name, tags, category and description (14_search.sql).
create index document_texts_search_vector_idx
  on public.document_texts using gin (search_vector);

-- The bytes of each organisation's search vectors stored out of line (a vector of more than
-- about 2 KB: a text of a page or more), kept by the triggers below: whether testing each of
-- its texts for a word reads little (search_documents).
create table private.search_vector_bytes (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  bytes bigint not null default 0
);

-- A vector's bytes out of line: its stored size when not kept in its row.
create function private.vector_bytes_out_of_line(vector tsvector)
returns bigint
language sql
stable
set search_path = ''
as $$
  select case when pg_catalog.pg_column_size(vector) > 2048
              then pg_catalog.pg_column_size(vector)::bigint else 0 end
$$;

-- The totals follow each statement that writes texts: the bytes of the vectors it stored out
-- of line, less those of the vectors it replaced or deleted, per organisation. The new vectors
-- are measured as stored (read again from the table), as the old ones are: a vector as it was
-- written is larger by its header. An organisation whose change is 0 is left as it is (no row
-- reads as 0): a new document's text row holds only its properties' vector, nearly always kept
-- in its row, and writing its organisation's total again cost every document insert an
-- update of that row (and, on PostgreSQL, held its lock to the end of the transaction).
create function private.search_vector_bytes_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.search_vector_bytes as b (organization_id, bytes)
  select t.organization_id, sum(private.vector_bytes_out_of_line(t.search_vector))
    from new_rows n
    join public.document_texts t on t.document_id = n.document_id
   group by t.organization_id
  having sum(private.vector_bytes_out_of_line(t.search_vector)) <> 0
  on conflict (organization_id) do update set bytes = b.bytes + excluded.bytes;
  return null;
end
$$;

create function private.search_vector_bytes_on_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.search_vector_bytes as b (organization_id, bytes)
  select c.organization_id, sum(c.bytes)
    from (select t.organization_id, private.vector_bytes_out_of_line(t.search_vector) as bytes
            from new_rows n
            join public.document_texts t on t.document_id = n.document_id
          union all
          select o.organization_id, -private.vector_bytes_out_of_line(o.search_vector)
            from old_rows o) c
   group by c.organization_id
  having sum(c.bytes) <> 0
  on conflict (organization_id) do update set bytes = b.bytes + excluded.bytes;
  return null;
end
$$;

create function private.search_vector_bytes_on_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update private.search_vector_bytes b
     set bytes = b.bytes - d.bytes
    from (select o.organization_id, sum(private.vector_bytes_out_of_line(o.search_vector)) as bytes
            from old_rows o
           group by o.organization_id) d
   where b.organization_id = d.organization_id;
  return null;
end
$$;

create trigger document_texts_vector_bytes_on_insert
  after insert on public.document_texts
  referencing new table as new_rows
  for each statement execute function private.search_vector_bytes_on_insert();
create trigger document_texts_vector_bytes_on_update
  after update on public.document_texts
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.search_vector_bytes_on_update();
create trigger document_texts_vector_bytes_on_delete
  after delete on public.document_texts
  referencing old table as old_rows
  for each statement execute function private.search_vector_bytes_on_delete();

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The words of a name or tag, with the separators of file names (`Annual-Report_2027.pdf`)
-- read as spaces, so that each part is a word of its own.
create function private.searchable_words(value text)
returns text
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.regexp_replace(coalesce(value, ''), '[._/\\-]+', ' ', 'g')
$$;

-- Every word both stemmed (english: "certificates" finds "certificate") and as written
-- (simple: the prefix "insura" of a word being typed finds "insurance", whose stem is "insur").
create function private.search_words(value text, weight "char")
returns tsvector
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.setweight(
    pg_catalog.to_tsvector('pg_catalog.english'::regconfig, coalesce(value, ''))
      operator(pg_catalog.||) pg_catalog.to_tsvector('pg_catalog.simple'::regconfig, coalesce(value, '')),
    weight)
$$;

-- A document's name and tags (A), category and description (B): the part of its search vector
-- that follows its properties.
create function private.document_metadata_vector(
  name text, tags text[], category text, description text
)
returns tsvector
language sql
immutable
set search_path = ''
as $$
  select private.search_words(
           private.searchable_words(name) || ' ' || private.searchable_words(pg_catalog.array_to_string(tags, ' ')),
           'A')
         operator(pg_catalog.||)
         private.search_words(coalesce(category, '') || ' ' || coalesce(description, ''), 'B')
$$;

-- The version of the stored object a document points at, or null when there is none.
create function private.document_object_version(file_path text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select o.version from storage.objects o where o.bucket_id = 'documents' and o.name = file_path
$$;

-- Queues the reading of `document_id`'s file at `object_version` (once per version).
create function private.queue_text_extraction(
  document_id uuid, organization_id uuid, object_version text
)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.enqueue_job(
    'document.extract-text',
    pg_catalog.jsonb_build_object('document_id', document_id, 'object_version', object_version),
    organization_id,
    'document.extract-text:' || document_id || ':' || coalesce(object_version, 'none'));
$$;

-- What a new text row says: queued where a server reads files, else why not.
create function private.text_extraction_enabled()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.enabled from private.text_extraction_settings s), false)
$$;

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Documents whose vector must follow their changed properties, oldest first.
create table private.search_refresh (
  document_id uuid primary key references public.documents (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  queued_at timestamptz not null default now()
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index search_refresh_organization_id_queued_at_idx
  on private.search_refresh (organization_id, queued_at, document_id);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The vectors of `document_ids` follow their documents' properties: the text's part (weight C)
-- is kept, the rest made anew (as in …0600).
create function private.refresh_document_search(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _updated integer;
begin
  update public.document_texts t
     set search_vector = pg_catalog.ts_filter(t.search_vector, '{c}')
                         operator(pg_catalog.||)
                         private.document_metadata_vector(d.name, d.tags, d.category,
                                                          d.description),
         updated_at = now()
    from public.documents d
   where d.id = t.document_id
     and t.document_id = any (document_ids);
  get diagnostics _updated = row_count;
  return _updated;
end
$$;

-- What building a document's property vector costs, against a byte of a vector put in the
-- index again: its properties are parsed twice (english and simple), each byte about four times
-- the work.
create function private.document_properties_cost(
  name text, tags text[], category text, description text
)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select 8 * (coalesce(pg_catalog.octet_length(name), 0)
              + coalesce(pg_catalog.octet_length(pg_catalog.array_to_string(tags, ' ')), 0)
              + coalesce(pg_catalog.octet_length(category), 0)
              + coalesce(pg_catalog.octet_length(description), 0))::bigint
$$;

-- Queues `document_ids` for the job `document.refresh-search`, one job per organisation and
-- statement (a job already running may have found the queue empty just before).
create function private.queue_document_search(document_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization uuid;
begin
  insert into private.search_refresh (document_id, organization_id)
  select d.id, d.organization_id from public.documents d where d.id = any (document_ids)
  on conflict (document_id) do nothing;
  for _organization in
    select distinct d.organization_id from public.documents d where d.id = any (document_ids)
  loop
    perform private.enqueue_job('document.refresh-search', '{}'::jsonb, _organization);
  end loop;
end
$$;

-- New documents: their text rows, their files queued for reading (as in …0600), and their
-- vectors' property part, at once or in the background (see the header).
create function private.documents_search_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _enabled boolean := private.text_extraction_enabled();
  _at_once boolean := true;
  _added uuid[];
begin
  if _enabled then
    select pg_catalog.count(*) <= 1
           or coalesce(pg_catalog.sum(private.document_properties_cost(n.name, n.tags, n.category,
                                                                        n.description)), 0)
              <= 1048576,
           pg_catalog.array_agg(n.id)
      into _at_once, _added
      from new_rows n;
  end if;
  insert into public.document_texts (document_id, organization_id, object_version, state, reason,
                                     search_vector)
  select n.id, n.organization_id, private.document_object_version(n.file_path),
         case when _enabled then 'pending' else 'unavailable' end,
         case when _enabled then null else 'Text extraction does not run on this installation' end,
         case when _at_once
           then private.document_metadata_vector(n.name, n.tags, n.category, n.description)
           else ''::tsvector end
    from new_rows n;
  if _enabled then
    perform private.queue_text_extraction(n.id, n.organization_id,
                                          private.document_object_version(n.file_path))
       from new_rows n;
  end if;
  if not _at_once then
    perform private.queue_document_search(_added);
  end if;
  return null;
end
$$;

-- Changed properties: their part of the vectors follows at once, or in the background (see the
-- header). One changed document (an edit in the app) is refreshed at once without weighing its
-- cost first: that second query was a sixth of what the trigger cost a property edit.
create function private.documents_search_on_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _changed uuid[];
  _cost bigint;
begin
  select coalesce(pg_catalog.array_agg(n.id), '{}') into _changed
    from new_rows n
    join old_rows o on o.id = n.id
   where o.name is distinct from n.name or o.tags is distinct from n.tags
      or o.category is distinct from n.category or o.description is distinct from n.description;
  if pg_catalog.cardinality(_changed) = 0 then
    return null;
  end if;
  if pg_catalog.cardinality(_changed) > 1 and private.text_extraction_enabled() then
    -- The vectors' sizes as stored, read without fetching them, and the new properties.
    select coalesce(pg_catalog.sum(pg_catalog.pg_column_size(t.search_vector)
                                   + private.document_properties_cost(d.name, d.tags, d.category,
                                                                      d.description)), 0)
      into _cost
      from public.documents d
      left join public.document_texts t on t.document_id = d.id
     where d.id = any (_changed);
    if _cost > 1048576 then
      perform private.queue_document_search(_changed);
      return null;
    end if;
  end if;
  perform private.refresh_document_search(_changed);
  return null;
end
$$;

-- Called by the job `document.refresh-search`: takes the organisation's oldest queued
-- documents whose vectors cost `max_bytes` together (at least one) and rebuilds them. Returns
-- how many it took; 0 when none is left. Two runners never take the same document.
create function private.refresh_queued_document_search(organization uuid, max_bytes bigint)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _ids uuid[];
begin
  select coalesce(pg_catalog.array_agg(q.document_id), '{}') into _ids
    from (select c.document_id, c.cost,
                 pg_catalog.sum(c.cost)
                   over (order by c.queued_at, c.document_id rows unbounded preceding) as total
            from (select r.document_id, r.queued_at,
                         coalesce(pg_catalog.pg_column_size(t.search_vector), 0)
                         + coalesce(private.document_properties_cost(d.name, d.tags, d.category,
                                                                     d.description), 0) as cost
                    from private.search_refresh r
                    left join public.documents d on d.id = r.document_id
                    left join public.document_texts t on t.document_id = r.document_id
                   where r.organization_id = organization) c) q
   where q.total - q.cost < max_bytes;
  with taken as (
    delete from private.search_refresh r where r.document_id = any (_ids) returning r.document_id
  )
  select coalesce(pg_catalog.array_agg(taken.document_id), '{}') into _ids from taken;
  perform private.refresh_document_search(_ids);
  return pg_catalog.cardinality(_ids);
end
$$;

-- ============================================================================================
-- Triggers
-- ============================================================================================

create trigger documents_search_on_insert
  after insert on public.documents
  referencing new table as new_rows
  for each statement execute function private.documents_search_on_insert();

create trigger documents_search_on_update
  after update on public.documents
  referencing old table as old_rows new table as new_rows
  for each statement execute function private.documents_search_on_update();

-- ============================================================================================
-- Policies
-- ============================================================================================

-- A new version of a document's file (edited content, a replaced file): read it again. The old
-- text stays searchable until the new one is ready.
create function private.document_text_on_new_version()
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

create trigger documents_text_follows_file
  after insert or update of version on storage.objects
  for each row
  when (new.bucket_id = 'documents' and new.version is not null)
  execute function private.document_text_on_new_version();

-- A document's new file (edited content, a replacement, a renewal, a restored version) is read
-- for the search as its new upload is not: that object had no document when it was written,
-- so the trigger above on storage.objects found none to queue (it finds a document only for a
-- file overwritten where it is, which no member may do to a file a document holds:
-- 09_versions.sql). The old text stays searchable until the new one is ready.
create function private.document_text_on_new_file()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _version text;
begin
  if not private.text_extraction_enabled() then
    return null;
  end if;
  _version := private.document_object_version(new.file_path);
  update public.document_texts t
     set object_version = _version, state = 'pending', reason = null, updated_at = now()
   where t.document_id = new.id;
  perform private.queue_text_extraction(new.id, new.organization_id, _version);
  return null;
end
$$;

create trigger documents_text_follows_file_path
  after update of file_path on public.documents
  for each row
  when (old.file_path is distinct from new.file_path)
  execute function private.document_text_on_new_file();

-- Called by the embedded server at every start, a batch at a time (no single statement holds
-- the database for long: with 100,000 documents one statement kept PGlite, which runs one
-- statement at a time, busy for seconds just after start).
-- Turns extraction on and looks at up to `batch_size` documents after `after_id` (in id order;
-- null: from the first): adds the text rows of documents made before the text table existed,
-- and queues those whose current file was never read or whose reading is pending. A file whose
-- reading failed every attempt is not queued again (issue 22, R2): one that takes its reader's
-- memory made a crash loop when every start retried it; a new version queues its own job.
-- Pending jobs are not queued twice (dedupe keys). Returns the
-- last id looked at, and how many were queued; a null id when no document is left.
create function private.start_text_extraction_batch(after_id uuid, batch_size integer)
returns table (last_id uuid, queued integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  _ids uuid[];
begin
  if batch_size is null or batch_size < 1 or batch_size > 10000 then
    raise exception 'batch_size must be between 1 and 10000';
  end if;
  update private.text_extraction_settings set enabled = true, updated_at = now() where not enabled;
  select array_agg(d.id order by d.id) into _ids
    from (select d.id from public.documents d
           where after_id is null or d.id > after_id
           order by d.id limit batch_size) d;
  if _ids is null then
    return query select null::uuid, 0;
    return;
  end if;
  insert into public.document_texts (document_id, organization_id, search_vector)
  select d.id, d.organization_id,
         private.document_metadata_vector(d.name, d.tags, d.category, d.description)
    from public.documents d
   where d.id = any (_ids)
     and not exists (select 1 from public.document_texts t where t.document_id = d.id);
  return query
  with stale as (
    update public.document_texts t
       set object_version = o.version, state = 'pending', reason = null, updated_at = now()
      from public.documents d
      left join storage.objects o on o.bucket_id = 'documents' and o.name = d.file_path
     where d.id = t.document_id
       and d.id = any (_ids)
       and (t.state = 'pending'
            or (t.state = 'unavailable' and t.extracted_at is null)
            or t.object_version is distinct from o.version)
    returning t.document_id, t.organization_id, t.object_version
  )
  select _ids[cardinality(_ids)], count(*)::integer
    from stale s, lateral private.queue_text_extraction(s.document_id, s.organization_id, s.object_version) q;
end
$$;

-- Records what reading `object_version` of a document's file gave, unless the document has
-- moved on to another version meanwhile (then the newer job records its own). `ready` stores
-- the text and its search vector, the text's words first so that their positions never move
-- (a text whose vector would pass Postgres' 1 MB limit is cut until it fits, and marked
-- truncated); `unavailable` says why there is no text; `failed`
-- records the reason of a failed attempt and keeps the text read before, if any, until an
-- attempt succeeds. Returns whether it recorded anything.
create function private.record_document_text(
  document_id uuid,
  object_version text,
  state text,
  reason text default null,
  content text default '',
  pages integer default null,
  truncated boolean default false
)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  _content text := coalesce(content, '');
  _truncated boolean := coalesce(truncated, false);
  _vector tsvector := ''::tsvector;
begin
  if state = 'ready' then
    loop
      begin
        _vector := private.search_words(_content, 'C');
        exit;
      exception when program_limit_exceeded then
        _content := left(_content, char_length(_content) / 2);
        _truncated := true;
      end;
    end loop;
  end if;
  update public.document_texts t
     set state = record_document_text.state,
         reason = left(record_document_text.reason, 500),
         content = case when record_document_text.state = 'failed' then t.content else _content end,
         search_vector = case when record_document_text.state = 'failed' then t.search_vector
                              else _vector operator(pg_catalog.||)
                                   private.document_metadata_vector(d.name, d.tags, d.category,
                                                                    d.description) end,
         truncated = case when record_document_text.state = 'failed' then t.truncated
                          else _truncated end,
         pages = case when record_document_text.state = 'failed' then t.pages
                      else record_document_text.pages end,
         extracted_at = case when record_document_text.state = 'failed' then t.extracted_at
                             else now() end,
         updated_at = now()
    from public.documents d
   where d.id = t.document_id
     and t.document_id = record_document_text.document_id
     and t.object_version is not distinct from record_document_text.object_version;
  return found;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table private.text_extraction_settings enable row level security;
-- No policies: only the server and the functions above read or write it.
alter table public.document_texts enable row level security;
alter table private.search_vector_bytes enable row level security;
-- No policies: only the triggers and search_documents read and write it.
alter table private.search_refresh enable row level security;
-- No policies: only the trigger and the server read and write it.

create policy "members read their organisation's document texts"
  on public.document_texts for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('viewer'))
    and ((select private.caller_hidden_categories()) = '{}'
         or coalesce(private.document_category(document_id)
                       <> all ((select private.caller_hidden_categories())::text[]), false))
  );

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Members read the state (and the text, which they may read in the file anyway); only the
-- triggers and the server write.
revoke all on public.document_texts from anon, authenticated;
grant select (document_id, organization_id, object_version, state, reason, truncated, pages,
              extracted_at, updated_at)
  on public.document_texts to authenticated;
revoke all on private.text_extraction_settings from public, anon, authenticated;
revoke all on private.search_vector_bytes from public, anon, authenticated;
revoke all on private.search_refresh from public, anon, authenticated;

revoke all on function private.searchable_words(text) from public, anon, authenticated;
revoke all on function private.search_words(text, "char") from public, anon, authenticated;
revoke all on function private.document_metadata_vector(text, text[], text, text)
  from public, anon, authenticated;
revoke all on function private.document_object_version(text) from public, anon, authenticated;
revoke all on function private.queue_text_extraction(uuid, uuid, text) from public, anon, authenticated;
revoke all on function private.text_extraction_enabled() from public, anon, authenticated;
revoke all on function private.document_text_on_new_version() from public, anon, authenticated;
revoke all on function private.document_text_on_new_file() from public, anon, authenticated;
revoke all on function private.start_text_extraction_batch(uuid, integer) from public, anon, authenticated;
revoke all on function private.record_document_text(uuid, text, text, text, text, integer, boolean)
  from public, anon, authenticated;
revoke all on function private.vector_bytes_out_of_line(tsvector) from public, anon, authenticated;
revoke all on function private.search_vector_bytes_on_insert() from public, anon, authenticated;
revoke all on function private.search_vector_bytes_on_update() from public, anon, authenticated;
revoke all on function private.search_vector_bytes_on_delete() from public, anon, authenticated;
revoke all on function private.refresh_document_search(uuid[]) from public, anon, authenticated;
revoke all on function private.document_properties_cost(text, text[], text, text)
  from public, anon, authenticated;
revoke all on function private.queue_document_search(uuid[]) from public, anon, authenticated;
revoke all on function private.documents_search_on_insert() from public, anon, authenticated;
revoke all on function private.documents_search_on_update() from public, anon, authenticated;
revoke all on function private.refresh_queued_document_search(uuid, bigint)
  from public, anon, authenticated;
