-- A change to many documents' properties no longer rewrites their search vectors within its own
-- statement (issue 22, found with R1). A document's vector holds its text and its properties
-- (migration …0600), and each new version of its row puts all its words into the search index
-- again: about 20 ms for a document with 100 KB of text on PGlite under load. A member's change
-- of the category of 300 such documents (`set_documents_category`, or a PATCH of `documents`)
-- held the embedded database 8 s, 15 s when they had long descriptions; one of 1,000 ended at
-- the deadline, and nobody else was served meanwhile.
--
-- Now a statement that changes the name, tags, category or description of one document, or of
-- documents whose vectors take at most 1 MB together, updates their vectors at once, as before.
-- A larger one queues the documents (private.search_refresh) and a job `document.refresh-search`
-- of the organisation rewrites their vectors, 1 MB of them per statement, so that others take
-- their turns in between. Until then a search matches those documents by their earlier
-- properties (their text, and the qualifiers tag:, category:, which read the documents, as
-- always). Where no server runs the jobs (hosted Supabase, where the vectors hold the
-- properties alone) every change updates the vectors at once.

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

-- Changed properties: their part of the vectors follows at once, or, for documents whose
-- vectors take more than 1 MB together, in the background (see the header).
create function private.documents_search_on_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _changed uuid[];
  _bytes bigint;
  _organization uuid;
begin
  select coalesce(pg_catalog.array_agg(n.id), '{}') into _changed
    from new_rows n
    join old_rows o on o.id = n.id
   where o.name is distinct from n.name or o.tags is distinct from n.tags
      or o.category is distinct from n.category or o.description is distinct from n.description;
  if pg_catalog.cardinality(_changed) = 0 then
    return null;
  end if;
  -- The vectors' sizes as stored, read without fetching them.
  select coalesce(pg_catalog.sum(pg_catalog.pg_column_size(t.search_vector)), 0) into _bytes
    from public.document_texts t
   where t.document_id = any (_changed);
  if pg_catalog.cardinality(_changed) = 1 or _bytes <= 1048576
     or not private.text_extraction_enabled() then
    perform private.refresh_document_search(_changed);
    return null;
  end if;
  insert into private.search_refresh (document_id, organization_id)
  select n.id, n.organization_id from new_rows n where n.id = any (_changed)
  on conflict (document_id) do nothing;
  -- One job per statement and organisation: a job already running may have found the queue
  -- empty just before these were added.
  for _organization in
    select distinct n.organization_id from new_rows n where n.id = any (_changed)
  loop
    perform private.enqueue_job('document.refresh-search', '{}'::jsonb, _organization);
  end loop;
  return null;
end
$$;

-- Called by the job `document.refresh-search`: takes the organisation's oldest queued
-- documents whose vectors take `max_bytes` together (at least one) and rewrites them. Returns
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
    from (select r.document_id,
                 coalesce(pg_catalog.pg_column_size(t.search_vector), 0) as size,
                 pg_catalog.sum(coalesce(pg_catalog.pg_column_size(t.search_vector), 0))
                   over (order by r.queued_at, r.document_id rows unbounded preceding) as total
            from private.search_refresh r
            left join public.document_texts t on t.document_id = r.document_id
           where r.organization_id = organization) q
   where q.total - q.size < max_bytes;
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
drop trigger documents_text_on_update on public.documents;
drop function private.document_text_on_update();

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
revoke all on function private.documents_search_on_update() from public, anon, authenticated;
revoke all on function private.refresh_queued_document_search(uuid, bigint)
  from public, anon, authenticated;
