-- Issue 23: an import adds a category the organisation lacks restricted when it was restricted
-- where it was exported (the manifest's `categories`), so that only the master admins see its
-- documents until they grant access.

create or replace function private.finish_organization_import(import_id uuid, documents jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _import public.organization_imports;
  _folder text;
  _count integer;
begin
  select * into _import from public.organization_imports i where i.id = import_id for update;
  if _import.id is null or _import.status <> 'running' then
    raise exception 'The import is not running';
  end if;
  _folder := 'documents/' || _import.organization_id || '/';
  -- Storage refuses a direct delete of its rows unless asked to, as hosted Storage does.
  perform set_config('storage.allow_delete_query', 'true', true);
  delete from storage.objects o where o.bucket_id = 'imports' and o.name = _import.file_path;

  insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
  select 'documents', _folder || (x.value ->> 'object_name'), _import.requested_by,
         _import.requested_by::text, x.value ->> 'version', x.value -> 'metadata'
  from jsonb_array_elements(finish_organization_import.documents) with ordinality x
  order by x.ordinality;

  -- The documents' categories: those the organisation lacks are added after its own, in the
  -- order the archive first names them, restricted when they were where they were exported
  -- (then only the master admins see them until they grant access; issue 23).
  insert into public.document_categories (organization_id, name, position, restricted)
  select _import.organization_id, n.name,
         coalesce((select max(c.position) from public.document_categories c
                    where c.organization_id = _import.organization_id), 0) + n.k,
         n.restricted
    from (select x.value ->> 'category' as name,
                 row_number() over (order by min(x.ordinality)) as k,
                 coalesce(bool_or((x.value ->> 'category_restricted')::boolean), false) as restricted
            from jsonb_array_elements(finish_organization_import.documents) with ordinality x
           group by x.value ->> 'category') n
  on conflict (organization_id, name) do nothing;

  -- The responsible member is the person of the same e-mail address when they are an active
  -- member here, else the admin.
  insert into public.documents (organization_id, name, category, expiry_date, size, file_path,
                                tags, description, uploaded_by, responsible_id)
  select _import.organization_id, x.value ->> 'name', x.value ->> 'category',
         (x.value ->> 'expiry_date')::date, (x.value ->> 'size')::bigint,
         _folder || (x.value ->> 'object_name'),
         coalesce(array(select jsonb_array_elements_text(x.value -> 'tags')), '{}'),
         x.value ->> 'description', _import.requested_by,
         coalesce((select p.id from public.user_profiles p
                   where p.organization_id = _import.organization_id and p.is_active
                     and lower(p.email) = lower(x.value ->> 'responsible_email')
                   limit 1),
                  _import.requested_by)
  from jsonb_array_elements(finish_organization_import.documents) with ordinality x
  order by x.ordinality;
  get diagnostics _count = row_count;

  update public.organization_imports
  set status = 'done', document_count = _count, finished_at = now(), error = null
  where id = import_id;
  perform private.log_activity(_import.organization_id, 'organization.imported', null, null,
    jsonb_build_object('documents', _count));
  return _count;
end
$$;
