-- Issue 26, item 3: imports on a hosted project with Steward's worker (2026112800410000). The
-- worker writes an import's files as hosted Storage keeps them, through its S3 protocol, in the
-- documents bucket as `documents/{organisation}/import-{import}-{file}` (the storage read
-- policy withholds such names until the import is done, 2026112900200); Storage records each
-- file's row with its own version when it is uploaded. The import's transaction therefore keeps
-- a row Storage recorded (its version, under which Storage keeps the bytes) and adds the owner
-- and Steward's metadata, and leaves the uploaded ZIP's row to the worker, which removes the ZIP
-- through Storage (`storage.remove-objects`), row and bytes together. Embedded, nothing changes:
-- the rows are new, and the ZIP's row goes here as before.

create or replace function private.finish_organization_import(import_id uuid, documents jsonb, access jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _import public.organization_imports;
  _folder text;
  _count integer;
  _restricting uuid[];
  _restricted_names text[];
begin
  select * into _import from public.organization_imports i where i.id = import_id for update;
  if _import.id is null or _import.status <> 'running' then
    raise exception 'The import is not running';
  end if;
  _folder := 'documents/' || _import.organization_id || '/';
  -- On a hosted project with Steward's worker the uploaded ZIP leaves through Storage, row and
  -- bytes together (the worker's `storage.remove-objects`); a row deleted here would leave its
  -- bytes in Storage's backend.
  if not (select s.objects_removed_through_storage from private.storage_settings s) then
    -- Storage refuses a direct delete of its rows unless asked to, as hosted Storage does.
    perform set_config('storage.allow_delete_query', 'true', true);
    delete from storage.objects o where o.bucket_id = 'imports' and o.name = _import.file_path;
  end if;

  -- Hosted Storage recorded the row of each file the worker uploaded, with its own version,
  -- under which it keeps the bytes: that version stays, the row takes the importing admin as
  -- its owner and Steward's metadata (the SHA-256) besides Storage's.
  insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
  select 'documents', _folder || (x.value ->> 'object_name'), _import.requested_by,
         _import.requested_by::text, x.value ->> 'version', x.value -> 'metadata'
  from jsonb_array_elements(finish_organization_import.documents) with ordinality x
  order by x.ordinality
  on conflict (bucket_id, name) do update
    set owner = excluded.owner, owner_id = excluded.owner_id,
        metadata = coalesce(storage.objects.metadata, '{}'::jsonb) || excluded.metadata;

  -- The categories restricted where they were exported that take their rules here: those the
  -- organisation lacks or has open (see above), read before the missing ones are added.
  select coalesce(array_agg(distinct x.value ->> 'category'), '{}') into _restricted_names
    from jsonb_array_elements(finish_organization_import.documents) x
   where (x.value ->> 'category_restricted')::boolean
     and not exists (select 1 from public.document_categories c
                      where c.organization_id = _import.organization_id
                        and c.name = x.value ->> 'category' and c.restricted);

  -- The documents' categories: those the organisation lacks are added after its own, in the
  -- order the archive first names them, restricted when they were where they were exported.
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

  with restricting as (
    update public.document_categories c set restricted = true
     where c.organization_id = _import.organization_id and c.name = any (_restricted_names)
    returning c.id
  )
  select coalesce(array_agg(r.id), '{}') into _restricting from restricting r;

  -- Their rules' groups the organisation lacks, with its active members of the same address.
  with named as (
    select distinct rule.value ->> 'group' as name
      from jsonb_array_elements(coalesce(finish_organization_import.access -> 'categories', '[]')) cat
     cross join jsonb_array_elements(coalesce(cat.value -> 'rules', '[]')) rule
     where cat.value ->> 'name' = any (_restricted_names) and rule.value ? 'group'
  ), made as (
    insert into public.member_groups (organization_id, name)
    select _import.organization_id, n.name from named n
    on conflict (organization_id, name) do nothing
    returning id, name
  )
  insert into public.member_group_members (group_id, user_id, organization_id)
  select distinct g.id, p.id, _import.organization_id
    from made g
    join jsonb_array_elements(coalesce(finish_organization_import.access -> 'groups', '[]')) x on x.value ->> 'name' = g.name
   cross join jsonb_array_elements_text(coalesce(x.value -> 'members', '[]')) e
    join public.user_profiles p on p.organization_id = _import.organization_id and p.is_active
                               and lower(p.email) = lower(e.value);

  insert into public.category_access (organization_id, category_id, group_id, role, access)
  select distinct _import.organization_id, c.id, g.id,
         case when rule.value ? 'group' then null else rule.value ->> 'role' end,
         rule.value ->> 'access'
    from public.document_categories c
    join jsonb_array_elements(coalesce(finish_organization_import.access -> 'categories', '[]')) cat
      on cat.value ->> 'name' = c.name
   cross join jsonb_array_elements(coalesce(cat.value -> 'rules', '[]')) rule
    left join public.member_groups g
      on g.organization_id = _import.organization_id and g.name = rule.value ->> 'group'
   where c.id = any (_restricting)
     and (g.id is not null or not rule.value ? 'group');

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
    jsonb_build_object('documents', _count, 'restricted_categories', to_jsonb(_restricted_names)));
  return _count;
end
$$;
