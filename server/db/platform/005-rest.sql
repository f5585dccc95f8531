-- Internals of the embedded REST service (server/rest/), not part of a Supabase project: a
-- hosted project's PostgREST bounds requests with its statement timeout alone.
create schema if not exists _rest;
grant usage on schema _rest to anon, authenticated, service_role;

-- Adds the bytes of one row's embedded resources to the answer's running total and stops the
-- statement as soon as the total passes `budget` (steward.toml [api] max_embedded_size). Called
-- once per row of the answer's root, as each row is produced (server/rest/sql-read.ts): nested
-- embeds multiply rows, so without this one short request can make Postgres build gigabytes of
-- JSON. The total lives in a transaction-local setting: one request, one transaction.
create or replace function _rest.take_embedded_bytes(added bigint, budget bigint)
returns boolean
language plpgsql
volatile
set search_path = ''
as $$
declare
  total bigint := coalesce(nullif(current_setting('pgrst.embedded_bytes', true), ''), '0')::bigint
    + added;
begin
  if total > budget then
    raise exception 'The embedded resources of this answer are larger than % bytes', budget
      using errcode = '54000',
        detail = 'Each answer may hold at most ' || budget || ' bytes of embedded resources.',
        hint = 'Filter or limit the embedded resources, or ask for fewer rows.';
  end if;
  perform set_config('pgrst.embedded_bytes', total::text, true);
  return true;
end
$$;
revoke all on function _rest.take_embedded_bytes(bigint, bigint) from public;
grant execute on function _rest.take_embedded_bytes(bigint, bigint)
  to anon, authenticated, service_role;
