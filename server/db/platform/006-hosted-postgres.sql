-- The role `supabase db push` applies migrations as on a hosted project, emulated: there it is
-- `postgres`, which is not a superuser; here the bootstrap superuser is `postgres`, so the role is
-- `hosted_postgres`, with what hosted Supabase gives `postgres`. The tests apply
-- supabase/migrations as this role (server/db/migrate.ts `asRole`), so a migration that needs
-- more than a hosted project allows fails in the tests rather than on deploy. docs/hosted-parity.md
-- lists what the emulation still does not catch.
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'hosted_postgres') then
    create role hosted_postgres nologin nosuperuser inherit createrole createdb bypassrls;
  end if;
  -- Hosted, the storage tables belong to the storage server's own role.
  if not exists (select 1 from pg_roles where rolname = 'supabase_storage_admin') then
    create role supabase_storage_admin nologin nosuperuser noinherit;
  end if;
  -- Hosted, `postgres` owns the database: it may create schemas.
  execute format('grant create, temporary on database %I to hosted_postgres', current_database());
end
$$;

grant usage, create on schema public, extensions to hosted_postgres;
grant anon, authenticated, service_role to hosted_postgres;
alter default privileges for role hosted_postgres in schema public
  grant all on tables to anon, authenticated, service_role;
alter default privileges for role hosted_postgres in schema public
  grant all on functions to anon, authenticated, service_role;
alter default privileges for role hosted_postgres in schema public
  grant all on sequences to anon, authenticated, service_role;

-- auth: every right on the tables (foreign keys to auth.users, triggers on it), no ownership,
-- and no CREATE in the schema.
grant usage on schema auth to hosted_postgres;
grant all on all tables in schema auth to hosted_postgres;
grant execute on all functions in schema auth to hosted_postgres;

-- storage: every right on the rows, and, as supautils grants `postgres` on a hosted project,
-- policies and triggers on storage.objects and storage.buckets. Plain PostgreSQL ties both to
-- ownership, so the tables belong to supabase_storage_admin, hosted_postgres is its member, and
-- the event triggers below refuse every other change hosted_postgres makes to the storage
-- schema (ALTER TABLE, indexes, DROP) with the error an owner check gives there.
grant usage on schema storage to hosted_postgres;
grant all on all tables in schema storage to hosted_postgres;
grant execute on all functions in schema storage to hosted_postgres;
-- The owner's rights check the objects' foreign key to buckets: it needs the schema.
grant usage on schema storage to supabase_storage_admin;
alter table storage.objects owner to supabase_storage_admin;
alter table storage.buckets owner to supabase_storage_admin;
grant supabase_storage_admin to hosted_postgres;

create schema if not exists _platform;

create or replace function _platform.hosted_storage_ddl()
returns event_trigger
language plpgsql
set search_path = ''
as $$
declare
  command record;
begin
  if current_user <> 'hosted_postgres' then
    return;
  end if;
  for command in select * from pg_catalog.pg_event_trigger_ddl_commands() loop
    if command.schema_name = 'storage' and command.object_type not in ('policy', 'trigger') then
      raise exception 'must be owner of table %', command.object_identity
        using errcode = '42501',
          hint = 'On hosted Supabase, migrations may only add policies and triggers to storage tables.';
    end if;
  end loop;
end
$$;

create or replace function _platform.hosted_storage_drop()
returns event_trigger
language plpgsql
set search_path = ''
as $$
declare
  dropped record;
begin
  if current_user <> 'hosted_postgres' then
    return;
  end if;
  for dropped in select * from pg_catalog.pg_event_trigger_dropped_objects() loop
    if dropped.schema_name = 'storage' and dropped.object_type not in ('policy', 'trigger')
      and dropped.original then
      raise exception 'must be owner of %', dropped.object_identity
        using errcode = '42501',
          hint = 'On hosted Supabase, migrations may only drop policies and triggers of storage tables.';
    end if;
  end loop;
end
$$;

do $$
begin
  if not exists (select 1 from pg_event_trigger where evtname = 'hosted_storage_ddl') then
    create event trigger hosted_storage_ddl on ddl_command_end
      execute function _platform.hosted_storage_ddl();
  end if;
  if not exists (select 1 from pg_event_trigger where evtname = 'hosted_storage_drop') then
    create event trigger hosted_storage_drop on sql_drop
      execute function _platform.hosted_storage_drop();
  end if;
end
$$;
