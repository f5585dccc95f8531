-- Issue 26, item 3: on a hosted project with Steward's worker (migration 2026112800410000), an
-- organisation's earlier and expired exports and abandoned import ZIPs leave their files to
-- Storage too: their rows stay for the job `storage.remove-objects`, which deletes each object
-- through Storage's S3 protocol, row and bytes together. A row deleted in SQL would leave the
-- ZIP's bytes in Storage's backend for good. Elsewhere nothing changes.

create or replace function private.expire_organization_transfers(at timestamptz)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _versions text[];
  _exports text[];
  _imports text[];
begin
  -- On a hosted project with Steward's worker, Storage removes the files, rows and bytes
  -- together (`storage.remove-objects`, 15_trash.sql); the rows stay for it until then.
  if (select s.objects_removed_through_storage from private.storage_settings s) then
    with expired as (
      update public.organization_exports e
      set status = 'expired', file_path = null
      where e.status = 'ready' and e.expires_at <= expire_organization_transfers.at
      returning e.organization_id, e.id
    )
    select coalesce(array_agg(e.organization_id || '/' || e.id || '.zip' order by e.id), '{}')
    into _exports from expired e;
    select coalesce(array_agg(o.name order by o.name), '{}') into _imports
    from storage.objects o
    where o.bucket_id = 'imports' and o.created_at <= expire_organization_transfers.at - interval '1 day'
      and not exists (select 1 from public.organization_imports i
                      where i.file_path = o.name and i.status in ('queued', 'running'));
    if cardinality(_exports) > 0 then
      perform private.enqueue_job('storage.remove-objects',
                                  jsonb_build_object('bucket', 'exports', 'names', to_jsonb(_exports)));
    end if;
    if cardinality(_imports) > 0 then
      perform private.enqueue_job('storage.remove-objects',
                                  jsonb_build_object('bucket', 'imports', 'names', to_jsonb(_imports)));
    end if;
    return cardinality(_exports) + cardinality(_imports);
  end if;
  perform set_config('storage.allow_delete_query', 'true', true);
  with expired as (
    update public.organization_exports e
    set status = 'expired', file_path = null
    where e.status = 'ready' and e.expires_at <= expire_organization_transfers.at
    returning e.organization_id, e.id
  ), removed as (
    delete from storage.objects o
    using expired e
    where o.bucket_id = 'exports' and o.name = e.organization_id || '/' || e.id || '.zip'
    returning o.version
  ), abandoned as (
    delete from storage.objects o
    where o.bucket_id = 'imports' and o.created_at <= expire_organization_transfers.at - interval '1 day'
      and not exists (select 1 from public.organization_imports i
                      where i.file_path = o.name and i.status in ('queued', 'running'))
    returning o.version
  )
  select coalesce(array_agg(v.version) filter (where v.version is not null), '{}') into _versions
  from (select version from removed union all select version from abandoned) v;
  if cardinality(_versions) > 0 then
    perform private.enqueue_job('storage.remove-files',
                                jsonb_build_object('versions', to_jsonb(_versions)));
  end if;
  return cardinality(_versions);
end
$$;

create or replace function private.remove_earlier_exports(organization_id uuid, export_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _versions text[];
  _names text[];
begin
  -- On a hosted project with Steward's worker, Storage removes the files, rows and bytes
  -- together (`storage.remove-objects`, 15_trash.sql); the rows stay for it until then.
  if (select s.objects_removed_through_storage from private.storage_settings s) then
    with earlier as (
      update public.organization_exports e
      set status = 'expired', file_path = null
      where e.organization_id = remove_earlier_exports.organization_id
        and e.status = 'ready' and e.id <> remove_earlier_exports.export_id
      returning e.id
    )
    select coalesce(array_agg(remove_earlier_exports.organization_id || '/' || e.id || '.zip'
                              order by e.id), '{}')
    into _names from earlier e;
    if cardinality(_names) > 0 then
      perform private.enqueue_job('storage.remove-objects',
                                  jsonb_build_object('bucket', 'exports', 'names', to_jsonb(_names)),
                                  remove_earlier_exports.organization_id);
    end if;
    return cardinality(_names);
  end if;
  perform set_config('storage.allow_delete_query', 'true', true);
  with earlier as (
    update public.organization_exports e
    set status = 'expired', file_path = null
    where e.organization_id = remove_earlier_exports.organization_id
      and e.status = 'ready' and e.id <> remove_earlier_exports.export_id
    returning e.id
  ), removed as (
    delete from storage.objects o
    using earlier e
    where o.bucket_id = 'exports'
      and o.name = remove_earlier_exports.organization_id || '/' || e.id || '.zip'
    returning o.version
  )
  select coalesce(array_agg(r.version) filter (where r.version is not null), '{}')
  into _versions from removed r;
  if cardinality(_versions) > 0 then
    perform private.enqueue_job('storage.remove-files',
                                jsonb_build_object('versions', to_jsonb(_versions)),
                                remove_earlier_exports.organization_id);
  end if;
  return cardinality(_versions);
end
$$;
