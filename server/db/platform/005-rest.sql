-- Internals of the embedded REST service (server/rest/), not part of a Supabase project: a
-- hosted project's PostgREST bounds requests with its statement timeout alone.
create schema if not exists _rest;
grant usage on schema _rest to anon, authenticated, service_role;

-- Counts the rows of one embedded level of a read (`select=…,docs(…)`) across all its parent
-- rows, and stops the statement as soon as they pass `budget` (the API's max_rows): each level
-- of a nested embed multiplies the rows, so without this one short request can make Postgres
-- build gigabytes of JSON. The count lives in a transaction-local setting, one per level.
create or replace function _rest.count_embedded_rows(level integer, added bigint, budget integer)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  setting text := 'pgrst.embedded_rows_' || level;
  total bigint := coalesce(nullif(current_setting(setting, true), ''), '0')::bigint + added;
begin
  if total > budget then
    raise exception 'An embedded resource has more than % rows across its parent rows', budget
      using errcode = '54000',
        detail = 'Each level of embedded resources may return at most ' || budget || ' rows in all.',
        hint = 'Filter or limit the embedded resource, or ask for fewer parent rows.';
  end if;
  perform set_config(setting, total::text, true);
  return true;
end
$$;
revoke all on function _rest.count_embedded_rows(integer, bigint, integer) from public;
grant execute on function _rest.count_embedded_rows(integer, bigint, integer)
  to anon, authenticated, service_role;
