-- The counter of documents in use (private.document_counts) is kept one way by its three
-- triggers (issue 27 item 3): the update trigger already applied its changes by the statement
-- that finds them; the insert and delete triggers still built a JSON list and passed it to
-- private.add_document_counts, a second security-definer call that ran both its insert and its
-- update whatever the list held. Now each applies its own: an insert's increases as an upsert, a
-- delete's decreases as an update of existing rows only, as add_document_counts did. The same
-- counts; add_document_counts, no longer called, is dropped.

-- Each trigger applies its changes by the statement that finds them, in one way: increases as an
-- upsert, decreases as an update of existing rows only (an organisation being deleted has lost
-- its rows already). No JSON list and no second security-definer call between them.
create or replace function private.count_inserted_documents()
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
create or replace function private.count_updated_documents()
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

create or replace function private.count_deleted_documents()
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


drop function private.add_document_counts(jsonb);
