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

-- `Prefer: count=planned` (and `estimated` past `max_rows`): the planner's estimate of the rows
-- `query` returns, as PostgREST reads it from EXPLAIN. `query` is built by the server from names
-- found in the schema cache; the request's values stay parameters ($1, $2, ...) of a prepared
-- statement whose types Postgres infers, and are handed to it quoted by Postgres itself. Runs as
-- the caller, so row-level security shapes the plan as it shapes the answer.
create or replace function _rest.planned_rows(query text, args jsonb)
returns bigint
language plpgsql
volatile
set search_path = ''
as $$
declare
  plan json;
  call text := '';
begin
  if exists (select 1 from pg_catalog.pg_prepared_statements where name = '_rest_planned_rows') then
    deallocate _rest_planned_rows;
  end if;
  if jsonb_array_length(args) > 0 then
    select '(' || string_agg(pg_catalog.quote_nullable(value), ', ' order by position) || ')'
      into call
      from jsonb_array_elements_text(args) with ordinality as arg(value, position);
  end if;
  execute 'prepare _rest_planned_rows as ' || query;
  begin
    execute 'explain (format json) execute _rest_planned_rows' || call into plan;
  exception when others then
    deallocate _rest_planned_rows;
    raise;
  end;
  deallocate _rest_planned_rows;
  return ceil((plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric)::bigint;
end
$$;
revoke all on function _rest.planned_rows(text, jsonb) from public;
grant execute on function _rest.planned_rows(text, jsonb) to anon, authenticated, service_role;
