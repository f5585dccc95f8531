-- An import is held to the organisation's storage quota while it unpacks (issue 22, R3): the
-- job asks how much room the organisation has before the worker writes a byte, and the worker
-- stops at the first file past it, instead of writing everything and letting the quota check
-- refuse the whole import at the end. The refusal's words are the quota check's, from one
-- place; and the check runs once per statement, so that adding an import's documents takes
-- time in proportion to their number, not its square.

-- ============================================================================================
-- Helpers
-- ============================================================================================

-- What a writer past the quota is told.
create function private.storage_quota_refusal(quota bigint)
returns text
language sql
immutable
set search_path = ''
as $$
  select format('Your organization''s storage is full (quota: %s)',
                pg_catalog.pg_size_pretty(coalesce(quota, 0)))
$$;

-- The bytes an organisation may still store (never negative), leaving out the object named by
-- (except_bucket_id, except_name) if given, and the refusal past them.
create function private.organization_storage_room(
  organization_id uuid,
  except_bucket_id text default null,
  except_name text default null
)
returns table (room bigint, refusal text)
language sql
stable
security definer
set search_path = ''
as $$
  select greatest(coalesce(s.quota_per_organization, 0)
                  - private.organization_storage_bytes(organization_storage_room.organization_id,
                                                       organization_storage_room.except_bucket_id,
                                                       organization_storage_room.except_name),
                  0)::bigint,
         private.storage_quota_refusal(s.quota_per_organization)
  from private.storage_settings s
$$;

-- The quota check of migration …0100 once per statement and organisation, over the rows the
-- statement wrote (transition tables), instead of once per row: each check sums what the
-- organisation holds, so per row an import of n documents summed n times over a growing
-- folder (1,000 documents: 17 s of its transaction's 20 s on PGlite, during which no other
-- organisation's statement ran). The rule is the same: a statement that grows what an
-- organisation holds must leave it within the quota; one that does not (a smaller
-- replacement, a rename inside it) always passes, so an organisation over a lowered quota can
-- still tidy up. Checked after the rows are written, under a lock per organisation taken
-- before the sum, so the next writer of the organisation sums after this one commits.
drop trigger objects_respect_storage_quota on storage.objects;
drop function private.enforce_storage_quota();

-- Raises the quota's refusal when any organisation in `changes` (organization_id, growth in
-- bytes) grew and now holds more than the quota.
create function private.check_storage_growth(changes jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _change record;
  _quota bigint := (select s.quota_per_organization from private.storage_settings s);
begin
  for _change in
    select (x ->> 'organization_id')::uuid as organization_id
    from jsonb_array_elements(changes) x
    where (x ->> 'growth')::bigint > 0
    order by 1
  loop
    perform pg_catalog.pg_advisory_xact_lock(
      pg_catalog.hashtextextended('storage quota ' || _change.organization_id, 7305));
    if private.organization_storage_bytes(_change.organization_id) > coalesce(_quota, 0) then
      -- 42501 with a message of our own: the storage server passes the message through
      -- (AccessDenied), where any other code would reach the client as "database error".
      raise exception using errcode = '42501', message = private.storage_quota_refusal(_quota);
    end if;
  end loop;
end
$$;

create function private.enforce_storage_quota_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.check_storage_growth(coalesce((
    select jsonb_agg(jsonb_build_object('organization_id', g.organization_id, 'growth', g.growth))
    from (
      select private.object_organization_id(n.bucket_id, n.name) as organization_id,
             sum(private.object_bytes(n.metadata)) as growth
      from new_objects n
      group by 1
    ) g
    where g.organization_id is not null), '[]'::jsonb));
  return null;
end
$$;

create function private.enforce_storage_quota_on_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.check_storage_growth(coalesce((
    select jsonb_agg(jsonb_build_object('organization_id', g.organization_id, 'growth', g.growth))
    from (
      select c.organization_id, sum(c.bytes) as growth
      from (
        select private.object_organization_id(n.bucket_id, n.name) as organization_id,
               private.object_bytes(n.metadata) as bytes
        from new_objects n
        union all
        select private.object_organization_id(o.bucket_id, o.name),
               -private.object_bytes(o.metadata)
        from old_objects o
      ) c
      group by 1
    ) g
    where g.organization_id is not null), '[]'::jsonb));
  return null;
end
$$;

create trigger objects_respect_storage_quota_on_insert
  after insert on storage.objects
  referencing new table as new_objects
  for each statement execute function private.enforce_storage_quota_on_insert();

create trigger objects_respect_storage_quota_on_update
  after update on storage.objects
  referencing old table as old_objects new table as new_objects
  for each statement execute function private.enforce_storage_quota_on_update();

-- The import's documents (migration …1000) in two statements, their files' storage rows and
-- then the documents, so that the checks made once per statement (the quota above, the
-- document counters) run once per import; and the uploaded ZIP's row goes in the same
-- transaction, so that it does not count against the room its documents need (the server
-- removes its bytes after the commit). Returns how many documents were added.
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

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function private.storage_quota_refusal(bigint) from public, anon, authenticated;
revoke all on function private.organization_storage_room(uuid, text, text)
  from public, anon, authenticated;
revoke all on function private.check_storage_growth(jsonb) from public, anon, authenticated;
revoke all on function private.enforce_storage_quota_on_insert() from public, anon, authenticated;
revoke all on function private.enforce_storage_quota_on_update() from public, anon, authenticated;
