-- Platform SQL files run once each (server/db/migrate.ts): an addition to the REST internals
-- of 005-rest.sql gets a file of its own, so that existing installations receive it too.
-- `Prefer: count=planned` (and `estimated` past `max_rows`): the planner's estimate of the rows
-- `query` returns, as PostgREST reads it from EXPLAIN. `query` is built by the server from names
-- found in the schema cache; the request's values stay parameters ($1, $2, ...) of a prepared
-- statement whose types Postgres infers, and are handed to it quoted by Postgres itself. Runs as
-- the caller, so row-level security shapes the plan as it shapes the answer.
-- No pinned search_path: the statement is planned with the request's own, as the read it counts
-- (an operator of an extension type resolves the same way); SECURITY INVOKER, so it grants nothing.
create or replace function _rest.planned_rows(query text, args jsonb)
returns bigint
language plpgsql
volatile
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
