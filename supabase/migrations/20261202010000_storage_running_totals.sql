-- The storage quota reads a running total per organisation instead of summing every object the
-- organisation holds on every upload (issue 27 item 3): at 1,000 objects that sum cost 2.9 ms of
-- PGlite's worker per upload, growing with the objects, under the organisation's lock. The
-- total is kept by statement triggers on storage.objects (insert, update, delete, truncate), in
-- the writer's transaction and under the organisation's quota lock, taken before the total's
-- row everywhere. The same refusals as before; the total starts as the sum of today's objects.

create table private.organization_storage_totals (
  organization_id uuid primary key,
  bytes bigint not null default 0
);

alter table private.organization_storage_totals enable row level security;
revoke all on private.organization_storage_totals from public, anon, authenticated;

create or replace function private.organization_storage_bytes(
  organization_id uuid,
  except_bucket_id text default null,
  except_name text default null
)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select t.bytes from private.organization_storage_totals t
                   where t.organization_id = organization_storage_bytes.organization_id), 0)
       - coalesce((select private.object_bytes(o.metadata) from storage.objects o
                   where o.bucket_id = except_bucket_id and o.name = except_name
                     and private.object_organization_id(o.bucket_id, o.name)
                         = organization_storage_bytes.organization_id), 0)
       + coalesce((select sum(r.bytes) from private.upload_reservations r
                   where r.organization_id = organization_storage_bytes.organization_id), 0)
$$;

create function private.record_storage_changes(changes jsonb)
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
    select (x ->> 'organization_id')::uuid as organization_id, (x ->> 'bytes')::bigint as bytes
    from jsonb_array_elements(changes) x
    where (x ->> 'bytes')::bigint <> 0
    order by 1
  loop
    perform pg_catalog.pg_advisory_xact_lock(
      pg_catalog.hashtextextended('storage quota ' || _change.organization_id, 7305));
    insert into private.organization_storage_totals as t (organization_id, bytes)
    values (_change.organization_id, _change.bytes)
    on conflict (organization_id) do update set bytes = t.bytes + excluded.bytes;
    if _change.bytes > 0
       and private.organization_storage_bytes(_change.organization_id) > coalesce(_quota, 0) then
      -- 42501 with a message of our own: the storage server passes the message through
      -- (AccessDenied), where any other code would reach the client as "database error".
      raise exception using errcode = '42501', message = private.storage_quota_refusal(_quota);
    end if;
  end loop;
end
$$;

create or replace function private.enforce_storage_quota_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.record_storage_changes(coalesce((
    select jsonb_agg(jsonb_build_object('organization_id', g.organization_id, 'bytes', g.bytes))
    from (
      select private.object_organization_id(n.bucket_id, n.name) as organization_id,
             sum(private.object_bytes(n.metadata)) as bytes
      from new_objects n
      group by 1
    ) g
    where g.organization_id is not null), '[]'::jsonb));
  return null;
end
$$;

create or replace function private.enforce_storage_quota_on_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.record_storage_changes(coalesce((
    select jsonb_agg(jsonb_build_object('organization_id', g.organization_id, 'bytes', g.bytes))
    from (
      select c.organization_id, sum(c.bytes) as bytes
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

drop function private.check_storage_growth(jsonb);

create function private.count_storage_on_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.record_storage_changes(coalesce((
    select jsonb_agg(jsonb_build_object('organization_id', g.organization_id, 'bytes', g.bytes))
    from (
      select private.object_organization_id(o.bucket_id, o.name) as organization_id,
             -sum(private.object_bytes(o.metadata)) as bytes
      from old_objects o
      group by 1
    ) g
    where g.organization_id is not null), '[]'::jsonb));
  return null;
end
$$;

create function private.count_storage_on_truncate()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.organization_storage_totals;
  return null;
end
$$;

create function private.recount_organization_storage(organization_id uuid)
returns bigint
language plpgsql
security definer
set search_path = ''
as $$
declare
  _bytes bigint;
begin
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('storage quota ' || recount_organization_storage.organization_id,
                                7305));
  _bytes := private.bucket_folder_bytes('documents',
                                        'documents/' || recount_organization_storage.organization_id
                                        || '/')
          + private.bucket_folder_bytes('branding',
                                        recount_organization_storage.organization_id || '/')
          + private.bucket_folder_bytes('imports',
                                        recount_organization_storage.organization_id || '/');
  insert into private.organization_storage_totals as t (organization_id, bytes)
  values (recount_organization_storage.organization_id, _bytes)
  -- By the constraint's name: the column's would be ambiguous with the argument's.
  on conflict on constraint organization_storage_totals_pkey do update set bytes = excluded.bytes;
  return _bytes;
end
$$;

create trigger objects_count_storage_on_delete
  after delete on storage.objects
  referencing old table as old_objects
  for each statement execute function private.count_storage_on_delete();

create trigger objects_count_storage_on_truncate
  after truncate on storage.objects
  for each statement execute function private.count_storage_on_truncate();

revoke all on function private.record_storage_changes(jsonb) from public, anon, authenticated;
revoke all on function private.count_storage_on_delete() from public, anon, authenticated;
revoke all on function private.count_storage_on_truncate() from public, anon, authenticated;
revoke all on function private.recount_organization_storage(uuid)
  from public, anon, authenticated;

-- Every organisation's total from the objects as they are. The triggers above were created
-- first: creating them locked storage.objects against writes until this transaction ends, so
-- no write falls between the sum and the triggers.
insert into private.organization_storage_totals (organization_id, bytes)
select c.organization_id, sum(c.bytes)
from (
  select private.object_organization_id(o.bucket_id, o.name) as organization_id,
         private.object_bytes(o.metadata) as bytes
  from storage.objects o
  where o.bucket_id in ('documents', 'branding', 'imports')
) c
where c.organization_id is not null
group by c.organization_id;
