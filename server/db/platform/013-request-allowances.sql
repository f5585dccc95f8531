-- Per-address request limits shared by every server process on one PostgreSQL (issue 26, item 2;
-- docs/several-processes.md), in the embedded backend's own schema, which no API role may use:
-- GoTrue's `sign_in_sign_ups` and `token_refresh`, the account e-mails per address and per
-- recipient, and the share link and request page limits. Each
-- process used to count alone, so behind a balancer N processes let N times the allowance
-- through. The server counts here when the database is PostgreSQL (server/auth/
-- request-rate-limit.ts); on PGlite the process is the only one and counts in memory.

-- One row per limiter and key (e.g. `auth.sign_in_sign_ups` and a client address): a token
-- bucket that holds `per_window` requests and refills at `per_window` a window.
create schema if not exists _platform;

create table _platform.request_allowances (
  limiter text not null,
  key text not null,
  -- Requests it may still take, as of `refilled_at`.
  tokens double precision not null,
  refilled_at timestamptz not null,
  -- When it is full again if nothing is taken: from then on the row says nothing a missing
  -- row would not, and the cleanup schedule deletes it.
  full_at timestamptz not null,
  constraint request_allowances_pkey primary key (limiter, key)
);

create index request_allowances_full_at_idx on _platform.request_allowances (full_at);

-- Takes one request from the allowance of `key` in `limiter`, which holds up to `per_window`
-- and refills at `per_window` each `window_ms`. Answers 0 when it was taken, otherwise the
-- seconds until it would be there (at least 1; nothing is taken). The upsert locks the row, so
-- concurrent requests from any process take their turns.
create function _platform.take_request_allowance(
  limiter text, key text, per_window integer, window_ms double precision
)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  _per_ms double precision := take_request_allowance.per_window / take_request_allowance.window_ms;
  _now timestamptz := clock_timestamp();
  _tokens double precision;
begin
  insert into _platform.request_allowances as a (limiter, key, tokens, refilled_at, full_at)
  values (take_request_allowance.limiter, take_request_allowance.key,
          take_request_allowance.per_window, _now, _now)
  on conflict on constraint request_allowances_pkey do update
    set tokens = least(excluded.tokens,
                       a.tokens + greatest(0, extract(epoch from excluded.refilled_at - a.refilled_at))
                                  * 1000 * _per_ms),
        refilled_at = greatest(a.refilled_at, excluded.refilled_at)
  returning a.tokens into _tokens;
  if _tokens < 1 then
    return greatest(1, ceil((1 - _tokens) / _per_ms / 1000))::integer;
  end if;
  update _platform.request_allowances a
     set tokens = a.tokens - 1,
         full_at = _now + make_interval(secs => (take_request_allowance.per_window - a.tokens + 1)
                                                / _per_ms / 1000)
   where a.limiter = take_request_allowance.limiter and a.key = take_request_allowance.key;
  return 0;
end
$$;

-- Deletes the allowances that are full again (the cleanup schedule, every ten minutes).
create function _platform.forget_full_request_allowances(now timestamptz)
returns void
language sql
set search_path = ''
as $$
  delete from _platform.request_allowances a where a.full_at <= forget_full_request_allowances.now;
$$;

-- None: only the server, through the functions above, reads and writes the allowances.
alter table _platform.request_allowances enable row level security;

revoke all on _platform.request_allowances from public, anon, authenticated, service_role;
revoke all on function _platform.take_request_allowance(text, text, integer, double precision)
  from public, anon, authenticated, service_role;
revoke all on function _platform.forget_full_request_allowances(timestamptz)
  from public, anon, authenticated, service_role;
