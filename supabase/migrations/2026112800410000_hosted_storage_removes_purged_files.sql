-- Issue 26, item 3: Steward's worker on a hosted Supabase project. Hosted Storage keeps an
-- object's bytes under its own keys and removes them only with the object's row, through its
-- API: a row deleted in SQL leaves its bytes in Storage's backend, where nothing reaches them
-- again. The hosted worker (`[server] target = "hosted"`) therefore marks the project here at
-- its start, and from then on documents deleted for ever leave their files' rows to it: it
-- deletes each object through Storage's S3 protocol (row and bytes) by the job
-- `storage.remove-objects`. The embedded storage server removes bytes by version as before.

-- Whether Storage's own service removes the objects of purged documents (a hosted project with
-- Steward's worker). Written by the worker at its start; read by purge_documents.
alter table private.storage_settings
  add column objects_removed_through_storage boolean not null default false;

create or replace function private.purge_documents(organization_id uuid, document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _ids uuid[];
  _paths text[];
  _versions text[];
  _names text[];
begin
  select coalesce(array_agg(d.id), '{}') into _ids
  from (
    select d.id from public.documents d
    where d.organization_id = purge_documents.organization_id
      and d.id = any (purge_documents.document_ids)
      and d.deleted_at is not null
    order by d.id
    for update
  ) d;
  if cardinality(_ids) = 0 then
    return 0;
  end if;
  select coalesce(array_agg(p.file_path), '{}') into _paths
  from (
    select d.file_path from public.documents d where d.id = any (_ids)
    union
    select v.file_path from public.document_versions v where v.document_id = any (_ids)
  ) p;
  delete from public.documents d where d.id = any (_ids);
  -- On a hosted project with Steward's worker, Storage removes the files, rows and bytes
  -- together (see the top of this file); a file another document or version still names stays.
  if (select s.objects_removed_through_storage from private.storage_settings s) then
    select coalesce(array_agg(o.name order by o.name), '{}') into _names
    from storage.objects o
    where o.bucket_id = 'documents' and o.name = any (_paths)
      and not exists (select 1 from public.documents d where d.file_path = o.name)
      and not exists (select 1 from public.document_versions v where v.file_path = o.name);
    if cardinality(_names) > 0 then
      perform private.enqueue_job('storage.remove-objects',
                                  jsonb_build_object('bucket', 'documents',
                                                     'names', to_jsonb(_names)),
                                  purge_documents.organization_id);
    end if;
    return cardinality(_ids);
  end if;
  -- Storage refuses a direct delete of its rows unless asked to (as hosted Storage does): the
  -- bytes are removed by the job below, so nothing is left behind.
  perform set_config('storage.allow_delete_query', 'true', true);
  -- A file another document or version still names stays (none should, but a copy could).
  with removed as (
    delete from storage.objects o
    where o.bucket_id = 'documents' and o.name = any (_paths)
      and not exists (select 1 from public.documents d where d.file_path = o.name)
      and not exists (select 1 from public.document_versions v where v.file_path = o.name)
    returning o.version
  )
  select coalesce(array_agg(r.version) filter (where r.version is not null), '{}')
  into _versions from removed r;
  if cardinality(_versions) > 0 then
    perform private.enqueue_job('storage.remove-files',
                                jsonb_build_object('versions', to_jsonb(_versions)),
                                purge_documents.organization_id);
  end if;
  return cardinality(_ids);
end
$$;
