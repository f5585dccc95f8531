-- Actions on many selected documents at once (issue 13): set the category, add or remove tags,
-- set the expiry date, delete. Each is one function, one statement, one transaction: every
-- selected document changes, or (when one of them is not the caller's to change) none does.
-- Security invoker: the documents' row-level security and column grants decide, exactly as
-- for the same change made to one document with `update`/`delete`. (So the functions use no
-- helper of the private schema, which the caller's role cannot reach.)
--
-- A selection is a list of document ids, each counted once: at least 1, at most 1000.
-- Tags are stored as the app stores them: trimmed, blanks dropped, each once
-- (case-insensitively), in the order given.

-- ============================================================================================
-- Functions
-- ============================================================================================
-- Each returns how many documents it changed (all of the selection).

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

-- Deletes the documents and returns their files' object names, which the app then removes
-- from the bucket in one request (as for one document: the row first, so a failed removal
-- leaves an unreferenced file, never a listed document without its file).
create function public.delete_documents(document_ids uuid[])
returns text[]
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _paths text[];
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  with deleted as (
    delete from public.documents where id = any (_ids) returning file_path
  )
  select array_agg(file_path) into _paths from deleted;
  if coalesce(cardinality(_paths), 0) <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _paths;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function public.set_documents_category(uuid[], text) from public, anon, authenticated;
revoke all on function public.set_documents_expiry(uuid[], date) from public, anon, authenticated;
revoke all on function public.add_documents_tags(uuid[], text[]) from public, anon, authenticated;
revoke all on function public.remove_documents_tags(uuid[], text[]) from public, anon, authenticated;
revoke all on function public.delete_documents(uuid[]) from public, anon, authenticated;
grant execute on function public.set_documents_category(uuid[], text) to authenticated;
grant execute on function public.set_documents_expiry(uuid[], date) to authenticated;
grant execute on function public.add_documents_tags(uuid[], text[]) to authenticated;
grant execute on function public.remove_documents_tags(uuid[], text[]) to authenticated;
grant execute on function public.delete_documents(uuid[]) to authenticated;
