-- One definition of who may read a stored document file (issue 27 review): the read policy of
-- storage.objects for the documents bucket and `public.record_document_looks` both ask
-- `private.document_file_readable`, where the function had a copy of the policy's conditions.

-- Whether a member of the organisation `organization_id` (as text), who may not view the
-- categories `hidden` and whose organisation's files `leaving` are on their way out, may read
-- the object `name` of the documents bucket. The one definition of that rule: the read policy
-- below and `public.record_document_looks` (which runs as its owner, so row-level security
-- does not apply inside it) both ask it. The caller's values are arguments so that the policy
-- passes its `(select …)` InitPlans, evaluated once per statement, not once per row. Security
-- definer: the policy asks it as the signed-in role, which has no right on the private schema.
create function private.document_file_readable(name text, organization_id text, hidden text[],
                                               leaving text[])
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (storage.foldername(document_file_readable.name))[1] = 'documents'
     and (storage.foldername(document_file_readable.name))[2]
         = document_file_readable.organization_id
     and (hidden = '{}' or not private.file_in_categories(document_file_readable.name, hidden))
     and document_file_readable.name <> all (leaving)
     and not (document_file_readable.name like 'documents/%/import-%'
              and private.unfinished_import_file(document_file_readable.name));
end
$$;

revoke all on function private.document_file_readable(text, text, text[], text[])
  from public, anon, authenticated;
grant execute on function private.document_file_readable(text, text, text[], text[])
  to authenticated;

drop policy "members read their organisation's document files" on storage.objects;
create policy "members read their organisation's document files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'documents'
    and private.document_file_readable(name,
                                       (select private.caller_organization_id('viewer')::text),
                                       (select private.caller_hidden_categories()),
                                       (select private.caller_files_leaving())::text[])
  );

create or replace function public.record_document_looks(object_names text[], action text)
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
    continue when not coalesce(
      private.document_file_readable(_name, _organization::text, _hidden, _leaving), false);
    perform private.record_document_look(_me, _name, action);
    _count := _count + 1;
  end loop;
  return _count;
end
$$;
