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

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index document_texts_organization_id_state_idx
  on public.document_texts (organization_id, state);
-- Every search of the text, name, tags, category and description (14_search.sql).
create index document_texts_search_vector_idx
  on public.document_texts using gin (search_vector);

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

-- A new document: its search vector, and its file queued for reading.
create function private.document_text_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _version text := private.document_object_version(new.file_path);
  _enabled boolean := private.text_extraction_enabled();
begin
  insert into public.document_texts (document_id, organization_id, object_version, state, reason,
                                     search_vector)
  values (new.id, new.organization_id, _version,
          case when _enabled then 'pending' else 'unavailable' end,
          case when _enabled then null else 'Text extraction does not run on this installation' end,
          private.document_metadata_vector(new.name, new.tags, new.category, new.description));
  if _enabled then
    perform private.queue_text_extraction(new.id, new.organization_id, _version);
  end if;
  return null;
end
$$;

create trigger documents_text_on_insert
  after insert on public.documents
  for each row execute function private.document_text_on_insert();

-- Changed properties: their part of the search vector follows at once; the text's part (weight
-- C) is kept as it is.
create function private.document_text_on_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.document_texts t
     set search_vector = pg_catalog.ts_filter(t.search_vector, '{c}')
                         operator(pg_catalog.||)
                         private.document_metadata_vector(new.name, new.tags, new.category,
                                                          new.description),
         updated_at = now()
   where t.document_id = new.id;
  return null;
end
$$;

create trigger documents_text_on_update
  after update of name, tags, category, description on public.documents
  for each row
  when (old.name is distinct from new.name or old.tags is distinct from new.tags
        or old.category is distinct from new.category
        or old.description is distinct from new.description)
  execute function private.document_text_on_update();

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
       and d.organization_id::text = (storage.foldername(new.name))[2]
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

create policy "members read their organisation's document texts"
  on public.document_texts for select to authenticated
  using (organization_id = (select private.caller_organization_id()));

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Members read the state (and the text, which they may read in the file anyway); only the
-- triggers and the server write.
revoke all on public.document_texts from anon, authenticated;
grant select on public.document_texts to authenticated;
revoke all on private.text_extraction_settings from public, anon, authenticated;

revoke all on function private.searchable_words(text) from public, anon, authenticated;
revoke all on function private.search_words(text, "char") from public, anon, authenticated;
revoke all on function private.document_metadata_vector(text, text[], text, text)
  from public, anon, authenticated;
revoke all on function private.document_object_version(text) from public, anon, authenticated;
revoke all on function private.queue_text_extraction(uuid, uuid, text) from public, anon, authenticated;
revoke all on function private.text_extraction_enabled() from public, anon, authenticated;
revoke all on function private.document_text_on_insert() from public, anon, authenticated;
revoke all on function private.document_text_on_update() from public, anon, authenticated;
revoke all on function private.document_text_on_new_version() from public, anon, authenticated;
revoke all on function private.document_text_on_new_file() from public, anon, authenticated;
revoke all on function private.start_text_extraction_batch(uuid, integer) from public, anon, authenticated;
revoke all on function private.record_document_text(uuid, text, text, text, text, integer, boolean)
  from public, anon, authenticated;
