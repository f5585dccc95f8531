-- The number of documents in use per organisation, kept by the database (issue 13). The
-- documents page shows "Showing 1–50 of N documents" on every load; `count(*)` of an
-- organisation's documents grows with the library (36 ms of a 48 ms first page at 100,000 on
-- PGlite, against 12 ms at 100). The unfiltered total comes from this table in constant time
-- (search_documents, …1201); searches and filters still count their matches.
--
-- Kept by statement-level triggers over the transition tables, so a bulk change (delete 1,000,
-- restore from the trash, an import) updates each organisation's row once. On PostgreSQL two
-- transactions changing the documents of one organisation wait for each other at its row until
-- the first commits; changes are short, and other organisations never share a row.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table private.document_counts (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  -- Documents not in the trash.
  live bigint not null default 0 constraint document_counts_live_check check (live >= 0)
);
alter table private.document_counts enable row level security;
revoke all on table private.document_counts from public, anon, authenticated;

insert into private.document_counts (organization_id, live)
select d.organization_id, count(*)
  from public.documents d
 where d.deleted_at is null
 group by d.organization_id;

-- ============================================================================================
-- Functions
-- ============================================================================================

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

revoke all on function private.add_document_counts(jsonb) from public, anon, authenticated;
revoke all on function private.count_inserted_documents() from public, anon, authenticated;
revoke all on function private.count_updated_documents() from public, anon, authenticated;
revoke all on function private.count_deleted_documents() from public, anon, authenticated;
revoke all on function private.live_document_count(uuid) from public, anon, authenticated;

