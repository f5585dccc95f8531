-- private.object_organization_id reads an object's folders with split_part instead of
-- storage.foldername (issue 27 item 3): storage.foldername is PL/pgSQL, about 14 µs a call on
-- PGlite, and the quota's triggers call this for every object row written or removed (twice
-- for the documents bucket: an upload's trial write and its size, a content edit, a removal).
-- The same organisation for every name: a first folder when the name holds a `/`, a second
-- when it holds two, as storage.foldername's array (every part but the last) has them.

-- The folders as storage.foldername names them (every part but the last), read with split_part:
-- storage.foldername is PL/pgSQL (about 14 µs a call on PGlite), and every object row written
-- or removed comes here from the quota's triggers, twice for the documents bucket. A name has a
-- first folder when it holds a `/`, a second when it holds two.
create or replace function private.object_organization_id(bucket_id text, name text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case when folder ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then folder::uuid end
  from (
    select case
      when bucket_id = 'documents' and name like 'documents/%/%'
        then pg_catalog.split_part(name, '/', 2)
      when bucket_id in ('branding', 'imports') and pg_catalog.strpos(name, '/') > 0
        then pg_catalog.split_part(name, '/', 1)
    end as folder
  ) f
$$;
