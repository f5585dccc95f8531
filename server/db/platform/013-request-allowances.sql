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
-- and refills at `per_window` each `window_ms`, at the server's time `now` (the clock of the
-- process, as the limits kept in memory). Answers 0 when it was taken, otherwise the
-- seconds until it would be there (at least 1; nothing is taken). The upsert locks the row, so
-- concurrent requests from any process take their turns.
create function _platform.take_request_allowance(
  limiter text, key text, per_window integer, window_ms double precision, now timestamptz
)
returns integer
language plpgsql
set search_path = ''
as $$
declare
  _per_ms double precision := take_request_allowance.per_window / take_request_allowance.window_ms;
  _now timestamptz := take_request_allowance.now;
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


-- ============================================================================================
-- Password guessing budgets (server/auth/guess-limiter.ts, whose comment gives the rules), shared
-- by the processes on one PostgreSQL as the allowances above. One row per key of a limiter
-- (`auth` for sign-ins, `share` for share link passwords): `pair:<account>\n<address>`,
-- `address:<address>` or `account:<account>`.
-- ============================================================================================
create table _platform.guess_records (
  limiter text not null,
  key text not null,
  -- The failures within the window, oldest first (at most 64: beyond, no wait grows longer).
  failures timestamptz[] not null default '{}',
  -- For an account in turns: when the next turn is free.
  next_turn timestamptz,
  -- For a pair: the account signed in from the address, which it trusts until then.
  trusted_until timestamptz,
  -- When the row says nothing a missing row would not: the cleanup schedule deletes it then.
  forget_at timestamptz not null,
  constraint guess_records_pkey primary key (limiter, key)
);

create index guess_records_forget_at_idx on _platform.guess_records (forget_at);

-- Milliseconds until a key with these failures may try again, past a budget of `free`:
-- 1 s after the last failure once `free` are used, twice as long after every further one,
-- at most 15 minutes.
create function _platform.guess_backoff(failures timestamptz[], free integer, now timestamptz)
returns double precision
language sql
immutable
set search_path = ''
as $$
  select case
    when cardinality(guess_backoff.failures) < guess_backoff.free then 0
    else greatest(0,
      extract(epoch from guess_backoff.failures[cardinality(guess_backoff.failures)]
                         - guess_backoff.now) * 1000
      + least(15 * 60000, 1000 * power(2, cardinality(guess_backoff.failures) - guess_backoff.free)))
  end
$$;

-- An attempt on `account` from `address` is starting at the server's time `now`: answers whether it may go ahead (after
-- `wait_ms`), or the seconds to wait before the next (`retry_after`). An attempt that goes ahead
-- counts as a failure from now on (`started`, which ends it: _platform.end_guess). The three
-- rows stay locked until the statement's transaction ends, so concurrent attempts, from any
-- process, take turns.
create function _platform.begin_guess(
  limiter text, account text, address text,
  per_pair integer, per_address integer, per_account integer,
  pace_ms double precision, max_wait_ms double precision, window_ms double precision,
  now timestamptz,
  out allowed boolean, out wait_ms double precision, out retry_after integer,
  out started timestamptz
)
language plpgsql
set search_path = ''
as $$
declare
  _now timestamptz := begin_guess.now;
  _window interval := make_interval(secs => begin_guess.window_ms / 1000);
  _pair text := 'pair:' || begin_guess.account || E'\n' || begin_guess.address;
  _address text := 'address:' || begin_guess.address;
  _account text := 'account:' || begin_guess.account;
  _row _platform.guess_records;
  _recent timestamptz[];
  _pair_failures timestamptz[];
  _address_failures timestamptz[];
  _account_failures timestamptz[];
  _trusted boolean := false;
  _next_turn timestamptz;
  _wait double precision;
  _turn timestamptz;
begin
  insert into _platform.guess_records as g (limiter, key, forget_at)
  select begin_guess.limiter, k, _now from unnest(array[_pair, _address, _account]) k
  on conflict on constraint guess_records_pkey do nothing;
  -- Locked in one order, so that two attempts never wait for each other's rows crosswise.
  for _row in
    select * from _platform.guess_records g
     where g.limiter = begin_guess.limiter and g.key in (_pair, _address, _account)
     order by g.key for update
  loop
    _recent := array(select f from unnest(_row.failures) f where f > _now - _window order by f);
    if _row.key = _pair then
      _pair_failures := _recent;
      _trusted := coalesce(_row.trusted_until > _now, false);
    elsif _row.key = _address then
      _address_failures := _recent;
    else
      _account_failures := _recent;
      _next_turn := _row.next_turn;
    end if;
  end loop;

  allowed := false;
  wait_ms := 0;
  _wait := _platform.guess_backoff(_pair_failures, begin_guess.per_pair, _now);
  if _wait > 0 then
    retry_after := greatest(1, ceil(_wait / 1000));
    return;
  end if;
  if not _trusted then
    _wait := _platform.guess_backoff(_address_failures, begin_guess.per_address, _now);
    if _wait > 0 then
      retry_after := greatest(1, ceil(_wait / 1000));
      return;
    end if;
    if cardinality(_account_failures) >= begin_guess.per_account then
      _turn := greatest(_now, coalesce(_next_turn, _now));
      wait_ms := extract(epoch from _turn - _now) * 1000;
      if wait_ms > begin_guess.max_wait_ms then
        retry_after := greatest(1, ceil(wait_ms / 1000));
        wait_ms := 0;
        return;
      end if;
      update _platform.guess_records g
         set next_turn = _turn + make_interval(secs => begin_guess.pace_ms / 1000),
             forget_at = greatest(g.forget_at, _turn + _window)
       where g.limiter = begin_guess.limiter and g.key = _account;
    end if;
  end if;

  -- Counted as a failure until it ends otherwise, so concurrent attempts see each other; the
  -- last 64 at most.
  update _platform.guess_records g
     set failures = (select array_agg(f order by f) from (
                       select f from unnest(case g.key when _pair then _pair_failures
                                                       when _address then _address_failures
                                                       else _account_failures end || _now) f
                        order by f desc limit 64) last),
         forget_at = greatest(g.forget_at, _now + _window)
   where g.limiter = begin_guess.limiter and g.key in (_pair, _address, _account);
  allowed := true;
  started := _now;
end
$$;

-- How the attempt that began at `started` ended: `succeeded` (the password was right: the
-- address's failures on the account are forgotten, the attempt is no failure, and the account
-- trusts the address for 30 days) or not checked (the server failed: it does not count).
create function _platform.end_guess(
  limiter text, account text, address text, started timestamptz, succeeded boolean,
  now timestamptz
)
returns void
language plpgsql
set search_path = ''
as $$
declare
  _pair text := 'pair:' || end_guess.account || E'\n' || end_guess.address;
begin
  update _platform.guess_records g
     set failures = case
           when end_guess.succeeded and g.key = _pair then '{}'
           -- One failure at that time: others may have begun at the same time.
           when array_position(g.failures, end_guess.started) is null then g.failures
           else g.failures[:array_position(g.failures, end_guess.started) - 1]
                || g.failures[array_position(g.failures, end_guess.started) + 1:] end,
         trusted_until = case when end_guess.succeeded and g.key = _pair
                              then end_guess.now + interval '30 days'
                              else g.trusted_until end,
         forget_at = case when end_guess.succeeded and g.key = _pair
                          then greatest(g.forget_at, end_guess.now + interval '30 days')
                          else g.forget_at end
   where g.limiter = end_guess.limiter
     and g.key in (_pair, 'address:' || end_guess.address, 'account:' || end_guess.account);
end
$$;

-- Deletes the allowances that are full again and the guess records that say nothing any more
-- (the cleanup schedule, every ten minutes).
create function _platform.forget_full_request_allowances(now timestamptz)
returns void
language sql
set search_path = ''
as $$
  delete from _platform.request_allowances a where a.full_at <= forget_full_request_allowances.now;
  delete from _platform.guess_records g where g.forget_at <= forget_full_request_allowances.now;
$$;

-- None: only the server, through the functions above, reads and writes the allowances.
alter table _platform.request_allowances enable row level security;
alter table _platform.guess_records enable row level security;

revoke all on _platform.request_allowances from public, anon, authenticated, service_role;
revoke all on function _platform.take_request_allowance(text, text, integer, double precision,
                                                         timestamptz)
  from public, anon, authenticated, service_role;
revoke all on function _platform.forget_full_request_allowances(timestamptz)
  from public, anon, authenticated, service_role;
revoke all on _platform.guess_records from public, anon, authenticated, service_role;
revoke all on function _platform.guess_backoff(timestamptz[], integer, timestamptz)
  from public, anon, authenticated, service_role;
revoke all on function _platform.begin_guess(text, text, text, integer, integer, integer,
                                             double precision, double precision, double precision,
                                             timestamptz)
  from public, anon, authenticated, service_role;
revoke all on function _platform.end_guess(text, text, text, timestamptz, boolean, timestamptz)
  from public, anon, authenticated, service_role;
