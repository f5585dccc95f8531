-- A statement that adds or changes many documents no longer builds their search vectors itself
-- (issue 22, found with R1). A document's vector holds its text and its properties (migration
-- …0600). Each new version of it puts all its words in the search index again, about 20 ms for
-- a document with 100 KB of text on PGlite under load, and parsing a description of 10,000
-- characters takes some 8 ms. A member's change of the category of 300 such documents
-- (`set_documents_category`, or a PATCH of `documents`) held the embedded database 8 s, 15 s
-- with long descriptions, one of 1,000 ended at the deadline, and an insert of 1,000 documents
-- with long descriptions in one request likewise; nobody else was served meanwhile.
--
-- Now a statement that adds or changes the name, tags, category or description of one
-- document, or of documents whose vectors and properties cost at most 1 MB (the stored size of
-- their vectors, and eight times their properties' bytes, which are parsed in two ways), builds
-- their vectors at once, as before. A larger one queues the documents (private.search_refresh)
-- and a job `document.refresh-search` of the organisation builds their vectors, 1 MB per
-- statement, so that others take their turns in between. Until then a search matches those
-- documents by their earlier properties (or, when just added, not by them: by their text, once
-- read, and by the qualifiers tag: and category:, which read the documents). Where no server
-- runs the jobs (hosted Supabase, where the vectors hold the properties alone) every statement
-- builds them at once.

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
-- header).
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
  -- The vectors' sizes as stored, read without fetching them, and the new properties.
  select coalesce(pg_catalog.sum(pg_catalog.pg_column_size(t.search_vector)
                                 + private.document_properties_cost(d.name, d.tags, d.category,
                                                                    d.description)), 0)
    into _cost
    from public.documents d
    left join public.document_texts t on t.document_id = d.id
   where d.id = any (_changed);
  if pg_catalog.cardinality(_changed) = 1 or _cost <= 1048576
     or not private.text_extraction_enabled() then
    perform private.refresh_document_search(_changed);
  else
    perform private.queue_document_search(_changed);
  end if;
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
drop trigger documents_text_on_insert on public.documents;
drop function private.document_text_on_insert();
drop trigger documents_text_on_update on public.documents;
drop function private.document_text_on_update();

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
alter table private.search_refresh enable row level security;
-- No policies: only the trigger and the server read and write it.

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on private.search_refresh from public, anon, authenticated;
revoke all on function private.refresh_document_search(uuid[]) from public, anon, authenticated;
revoke all on function private.document_properties_cost(text, text[], text, text)
  from public, anon, authenticated;
revoke all on function private.queue_document_search(uuid[]) from public, anon, authenticated;
revoke all on function private.documents_search_on_insert() from public, anon, authenticated;
revoke all on function private.documents_search_on_update() from public, anon, authenticated;
revoke all on function private.refresh_queued_document_search(uuid, bigint)
  from public, anon, authenticated;
