-- Issue 26, item 3: on a hosted project with Steward's worker (2026112800410000), a purge leaves
-- the rows of its documents' files to the job `storage.remove-objects`, which deletes them
-- through Storage moments later. Until then the rows were still there, and an active member who
-- knew a purged file's name could download it or sign a link to it, even from a category closed
-- to them (the category's rule reads the document, which is gone). The purge now writes the
-- names it leaves to the job into `private.document_files_leaving`, in its own transaction, and
-- the documents bucket's read policy (which signed URLs check too) refuses them; the job forgets
-- each name once its object is gone or used again. Embedded, the purge deletes the rows at
-- once, as before, and the table stays empty. The policy reads the caller's organisation's
-- leaving names once per statement (an empty array but for those moments), not once per object.
--
-- The same policy withholds the files a hosted project's import writes into the documents
-- bucket (`documents/{organisation}/import-{import}-…`, 2026112900201) until that import is
-- done, so that nothing half-imported is seen: only names of that shape are looked up.

create table private.document_files_leaving (
  -- The object's name in the documents bucket.
  name text primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  since timestamptz not null default now()
);
alter table private.document_files_leaving enable row level security;
revoke all on private.document_files_leaving from public, anon, authenticated;
create index document_files_leaving_organization_id_idx
  on private.document_files_leaving (organization_id);

-- The names of the caller's organisation's files of purged documents on their way out
-- (`private.document_files_leaving`): the storage read policy refuses them. Read once per
-- statement; empty but for the moments between a purge and its removal job.
create function private.caller_files_leaving()
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(l.name), '{}') from private.document_files_leaving l
   where l.organization_id = (select private.caller_organization_id('viewer'))
$$;

-- Whether the object `name` of the documents bucket is a file a hosted project's import wrote
-- (`documents/{organisation}/import-{import}-…`, see server/transfer/import-files.ts) and that
-- import is not done: the storage read policy refuses it. The policy asks only for names
-- that look like one. Security definer: the policy asks it as the signed-in role, which has no
-- right on the private schema.
create function private.unfinished_import_file(name text)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _import text := substring(unfinished_import_file.name from
    '^documents/[^/]+/import-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-');
begin
  return _import is not null
     and not exists (select 1 from public.organization_imports i
                      where i.id = _import::uuid and i.status = 'done');
end
$$;

revoke all on function private.caller_files_leaving() from public, anon, authenticated;
revoke all on function private.unfinished_import_file(text) from public, anon, authenticated;
grant execute on function private.caller_files_leaving() to authenticated;
grant execute on function private.unfinished_import_file(text) to authenticated;

drop policy "members read their organisation's document files" on storage.objects;
create policy "members read their organisation's document files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id('viewer')::text)
    and ((select private.caller_hidden_categories()) = '{}'
         or not private.file_in_categories(name, (select private.caller_hidden_categories())))
    and name <> all ((select private.caller_files_leaving())::text[])
    and not (name like 'documents/%/import-%' and private.unfinished_import_file(name))
  );

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
      -- Nobody reads them until the job has removed them (04_storage.sql's read policy).
      insert into private.document_files_leaving (name, organization_id)
      select n.name, purge_documents.organization_id from unnest(_names) n(name)
      on conflict (name) do nothing;
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
