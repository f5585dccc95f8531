-- A file whose reading failed every attempt stays failed (issue 22, R2). The start-up look over
-- the library (…0701) queued such files again at every start, "a restart is their later": a
-- file that takes its reader's memory then took the server down at every start, a crash loop.
-- Now a failed file is read again only when its content changes (a new version queues its own
-- job); its attempts are retried by its own job meanwhile, which the queue keeps without help.
-- The start still queues documents never read, and those whose reading is pending.

create or replace function private.start_text_extraction_batch(after_id uuid, batch_size integer)
returns table (last_id uuid, queued integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  _ids uuid[];
begin
  if batch_size is null or batch_size < 1 or batch_size > 10000 then
    raise exception 'batch_size must be between 1 and 10000';
  end if;
  update private.text_extraction_settings set enabled = true, updated_at = now() where not enabled;
  select array_agg(d.id order by d.id) into _ids
    from (select d.id from public.documents d
           where after_id is null or d.id > after_id
           order by d.id limit batch_size) d;
  if _ids is null then
    return query select null::uuid, 0;
    return;
  end if;
  insert into public.document_texts (document_id, organization_id, search_vector)
  select d.id, d.organization_id,
         private.document_metadata_vector(d.name, d.tags, d.category, d.description)
    from public.documents d
   where d.id = any (_ids)
     and not exists (select 1 from public.document_texts t where t.document_id = d.id);
  return query
  with stale as (
    update public.document_texts t
       set object_version = o.version, state = 'pending', reason = null, updated_at = now()
      from public.documents d
      left join storage.objects o on o.bucket_id = 'documents' and o.name = d.file_path
     where d.id = t.document_id
       and d.id = any (_ids)
       and (t.state = 'pending'
            or (t.state = 'unavailable' and t.extracted_at is null)
            or t.object_version is distinct from o.version)
    returning t.document_id, t.organization_id, t.object_version
  )
  select _ids[cardinality(_ids)], count(*)::integer
    from stale s, lateral private.queue_text_extraction(s.document_id, s.organization_id, s.object_version) q;
end
$$;

revoke all on function private.start_text_extraction_batch(uuid, integer) from public, anon, authenticated;
