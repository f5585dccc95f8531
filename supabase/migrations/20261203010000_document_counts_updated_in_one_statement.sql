-- The counter of documents in use (private.document_counts) after an update is kept by one
-- statement (issue 27 item 3): the trigger built a JSON list of the changes and passed it to
-- private.add_document_counts, a second security-definer call that ran its insert and its
-- update even when the list was empty, as it is for most updates (an edit that keeps the
-- category, a new file). The same counts.

-- Every update of documents runs this (an edit, a new file, a trash), and most change no count:
-- the changes are applied by the statement that finds them, as add_document_counts would apply
-- them, without its JSON and its second call (which ran its two statements on an empty list too).
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
    -- Decreases only touch existing rows (as add_document_counts).
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
