-- A property edit costs the search trigger one query fewer (issue 27 item 3): one changed
-- document is refreshed at once, as before, without first weighing what refreshing it costs
-- (the weighing decides only between at once and in the background for several documents).
-- Measured on PGlite, a member's property update as the load benchmark sends it: about 150 us
-- of the trigger's 950 us (bench/RESULTS.md, "The writes' SQL").

create or replace function private.documents_search_on_update()
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
