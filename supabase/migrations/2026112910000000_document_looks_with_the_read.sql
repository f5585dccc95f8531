-- "Who looked" in the same statement as the read of the file (issue 27): a signed link made or
-- fetched, a download and a preview read the object as the caller under row-level security and
-- record the look (`private.record_document_look`) in that statement, one turn of the caller's
-- lane and one round trip instead of two. The storage routes call this function only for the
-- names the caller's read under RLS found; it re-checks that the caller may read each name
-- (the conditions of storage.objects' read policy for the documents bucket, with the same
-- helpers), so called by itself it records nothing a caller could not have looked at. The
-- person is always the caller (`auth.uid()`), never an argument.
create function public.record_document_looks(object_names text[], action text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me uuid := (select auth.uid());
  -- The caller's organisation, if active (any role); it also demands the second factor.
  _organization uuid := (select private.caller_organization_id('viewer'));
  _hidden text[];
  _leaving text[];
  _name text;
  _count integer := 0;
begin
  if action not in ('viewed', 'downloaded') then
    raise exception 'Unknown look: %', action;
  end if;
  if _me is null or _organization is null then
    return 0;
  end if;
  _hidden := private.caller_hidden_categories();
  _leaving := private.caller_files_leaving();
  for _name in select distinct n from unnest(record_document_looks.object_names) n loop
    continue when not exists (select 1 from storage.objects o
                               where o.bucket_id = 'documents' and o.name = _name);
    continue when (storage.foldername(_name))[1] is distinct from 'documents'
               or (storage.foldername(_name))[2] is distinct from _organization::text;
    continue when _hidden <> '{}' and private.file_in_categories(_name, _hidden);
    continue when _name = any (_leaving);
    continue when _name like 'documents/%/import-%' and private.unfinished_import_file(_name);
    perform private.record_document_look(_me, _name, action);
    _count := _count + 1;
  end loop;
  return _count;
end
$$;

revoke all on function public.record_document_looks(text[], text) from public, anon, authenticated;
grant execute on function public.record_document_looks(text[], text) to authenticated;
