-- The embedded server's start looks over the library a batch of documents at a time (issue 11's
-- rule: no single statement holds the database for long). `private.start_text_extraction()`
-- (…0600) did it in one statement: with 100,000 documents that statement kept PGlite, which
-- runs one statement at a time, busy for seconds just after start, and requests waiting
-- behind it were answered 503. Each batch is now its own short statement, so other callers take
-- their turns in between.

drop function private.start_text_extraction();

-- Turns extraction on and looks at up to `batch_size` documents after `after_id` (in id order;
-- null: from the first): adds the text rows of documents made before the text table existed,
-- and queues those whose current file was never read, or whose reading failed every attempt
-- (a restart is their "later"). Pending jobs are not queued twice (dedupe keys). Returns the
-- last id looked at, and how many were queued; a null id when no document is left.
create function private.start_text_extraction_batch(after_id uuid, batch_size integer)
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
       and (t.state in ('pending', 'failed')
            or (t.state = 'unavailable' and t.extracted_at is null)
            or t.object_version is distinct from o.version)
    returning t.document_id, t.organization_id, t.object_version
  )
  select _ids[cardinality(_ids)], count(*)::integer
    from stale s, lateral private.queue_text_extraction(s.document_id, s.organization_id, s.object_version) q;
end
$$;

revoke all on function private.start_text_extraction_batch(uuid, integer) from public, anon, authenticated;
