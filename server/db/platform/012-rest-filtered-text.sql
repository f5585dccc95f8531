-- Internals of the embedded REST service (server/rest/sql-filter.ts), as 005-rest.sql: the text
-- that one request's pattern and full-text filters read. Each such filter first adds the size
-- of the value it is about to read, weighted by what reading it costs, to the request's total,
-- and the statement stops as soon as the total passes `budget` (steward.toml [api]
-- max_filtered_text). Without it `documents?description=fts.x` parsed every description of an
-- organisation in one statement (4 s for 300 of 10,000 characters), during which the embedded
-- database served nobody else. The total lives in a transaction-local setting: one request,
-- one transaction.

-- The error, raised once.
create or replace function _rest.filtered_text_exceeded(budget bigint)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  raise exception 'The filters of this request read more than % bytes of text', budget
    using errcode = '54000',
      detail = 'Pattern filters (like, ilike; match and imatch count 8 times) and full-text '
        || 'filters on a text column (fts, plfts, phfts, wfts: 16 times) may read at most '
        || budget || ' bytes of text in one request.',
      hint = 'Narrow the rows with other filters first; documents are searched with '
        || 'rpc/search_documents.';
end
$$;

-- Called for every row a filter reads. In SQL, without settings of its own, so that it is
-- inlined into the filter: a PL/pgSQL call per row made a filter on short names three times
-- slower.
create or replace function _rest.take_filtered_text(added bigint, budget bigint)
returns boolean
language sql
volatile
as $$
  select case
    when pg_catalog.set_config(
           'pgrst.filtered_text',
           (coalesce(nullif(pg_catalog.current_setting('pgrst.filtered_text', true), ''), '0')::bigint
             + coalesce(added, 0))::text,
           true)::bigint > budget
      then _rest.filtered_text_exceeded(budget)
    else true
  end
$$;

revoke all on function _rest.filtered_text_exceeded(bigint) from public;
revoke all on function _rest.take_filtered_text(bigint, bigint) from public;
grant execute on function _rest.filtered_text_exceeded(bigint) to anon, authenticated, service_role;
grant execute on function _rest.take_filtered_text(bigint, bigint)
  to anon, authenticated, service_role;
