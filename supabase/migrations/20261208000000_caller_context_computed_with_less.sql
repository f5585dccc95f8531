-- The caller's context computed with less around its rules (issue 27 item 3): the rule of what
-- a member may do in each category as a view, which the context's statement takes in place
-- (member_category_access reads the same view, so the rule keeps one definition); the rank of
-- a known role as a planned constant instead of a call of role_rank; the two settings written
-- by two one-expression statements; and the key as the settings' lengths and texts instead of
-- an array's text, which quoted the claims' JSON. The same context for every caller, the same
-- key for the same settings and never for different ones. In process on PGlite (21 rounds
-- alternated with the previous definitions): about 20 µs less per computation, 2 µs per kept
-- call (bench/RESULTS.md, i12-load).

-- Every category of every active member's organisation with what that member may do there
-- (`user_id`); no rows for a member who is not active in an organisation. The one statement of
-- the rule (see the header; the rules of a restricted category are read by category_rules_grant
-- above, for this statement only); member_category_access below and the caller's context
-- (private.caller_context) read it for one member, and every other helper asks the function.
-- A view, so that the context's statement takes it in place, planned with it: read through the
-- set-returning function, its `return query` and the function's entry cost each computation of
-- the context about 30 µs on PGlite, half of this part. security_invoker: read with the rights
-- of whoever reads it (the definer functions above), and no API role may read it.
create view private.member_category_access_rows
with (security_invoker = true)
as
  select p.id as user_id, c.id, c.name, c.position, c.retired_at is not null as retired,
         c.restricted,
         not c.restricted or p.role = 'master_admin' or r.granted is not null as can_view,
         p.role <> 'viewer'
           and (not c.restricted or p.role = 'master_admin' or coalesce(r.granted = 'edit', false))
           as can_edit
    from public.user_profiles p
    join public.document_categories c on c.organization_id = p.organization_id
   cross join lateral (
      select case when c.restricted
                  then private.category_rules_grant(c.id, p.role, p.id) end as granted
    ) r
   where p.is_active and p.organization_id is not null;

-- Every category of the member's organisation with what this member may do there
-- (private.member_category_access_rows); no rows for a member who is not active in an
-- organisation. PL/pgSQL so that its plan is kept for the session (see
-- private.two_factor_required_for): policies read it on every statement.
create or replace function private.member_category_access(user_id uuid)
returns table (
  id uuid, name text, "position" integer, retired boolean, restricted boolean,
  can_view boolean, can_edit boolean
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select a.id, a.name, a.position, a.retired, a.restricted, a.can_view, a.can_edit
    from private.member_category_access_rows a
   where a.user_id = member_category_access.user_id;
end
$$;

revoke all on private.member_category_access_rows from public, anon, authenticated;

-- The caller's context, computed once per snapshot, and the one definition of when it is. The
-- policy helpers below (caller_organization_id, second_factor_checked, caller_hidden_categories,
-- caller_uneditable_categories) are each an InitPlan of every policy that names them: a
-- member's property edit called them ten times, each reading the same rows (about 1 ms of a
-- 3.8 ms edit on PGlite). Each helper asks this function, and only this function decides
-- whether the context kept in the transaction-local settings is still the caller's: a helper
-- with a key of its own could drift to a weaker one, and a weaker key leaks.
--
-- The key is what the answer depends on: the request's claims in the three settings auth.uid()
-- and auth.jwt() read, and the statement's snapshot (pg_current_snapshot() is the active
-- snapshot: a STABLE function runs in its caller's). Two statements with the same snapshot
-- text see the same committed transactions, so under READ COMMITTED another session's commit
-- (a revoked access, a deactivation) changes the next statement's key and is seen at once;
-- neither the transaction nor the statement's time would do. What the text does not hold is
-- the transaction's own writes: a statement that writes a table the context reads sets the key
-- to 'written' (private.caller_context_written), which no key equals, and from then on the
-- context is computed anew on every call for the rest of the transaction (a cursor or a loop
-- over a query keeps an older snapshot, so a context computed after the write could still miss
-- it); nothing is kept then. A rolled-back subtransaction restores the settings as they were
-- before it, with its writes undone. Only SQL can set these settings (the API sets claims and
-- its own request settings, and exposes no function of pg_catalog), and the kept context is
-- used only under its exact key, which is written with it. The rules themselves stay in their
-- one statement each: the profile's role below, second_factor_refusal and
-- member_category_access_rows (read here in place, as a view: see there).
--
-- The context is one text array, kept whole in one setting (`steward.caller`) beside its key
-- (`steward.caller_context`): in seven settings it cost every computation seven `set_config`
-- calls and every helper a `current_setting` per value. Its elements, by position:
-- 1 the organisation in which the caller is an active member ('' for none); 2 the rank of the
-- caller's role (private.role_rank); 3 the minimum roles that role meets, as an array, so that
-- caller_organization_id answers any of them without a call of role_rank (each costs about
-- 25 µs on PGlite; with constants, as here, Postgres computes them once when it plans the
-- statement); 4 second_factor_refusal's answer ('' for none); 5 the categories the caller may
-- not view, and 6 those they may not add to or change, as arrays
-- (member_category_access_rows).
create or replace function private.caller_context()
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _sub text := current_setting('request.jwt.claim.sub', true);
  _claim text := current_setting('request.jwt.claim', true);
  _claims text := current_setting('request.jwt.claims', true);
  -- Each setting as its length in bytes and its text (' -' when unset), after the snapshot's
  -- text (digits, colons and commas): no two keys of different settings are the same text, and
  -- none is 'written'. Built on every call, kept or not; as an array's text it quoted and
  -- escaped the claims' JSON, about 2 µs a call on PGlite.
  _key text := pg_current_snapshot()::text
               || coalesce(' ' || octet_length(_sub) || ':' || _sub, ' -')
               || coalesce(' ' || octet_length(_claim) || ':' || _claim, ' -')
               || coalesce(' ' || octet_length(_claims) || ':' || _claims, ' -');
  _uid uuid;
  _role text;
  _rank integer;
  _organization uuid;
  _context text[];
begin
  if current_setting('steward.caller_context', true) = _key then
    return current_setting('steward.caller')::text[];
  end if;
  _uid := auth.uid();
  select p.role, case when p.is_active then p.organization_id end into _role, _organization
    from public.user_profiles p
   where p.id = _uid;
  -- The rank of each known role as a constant (role_rank of a constant is computed when the
  -- expression is planned, once per session), role_rank called only for any other value: one
  -- call of a SQL function with a `set` clause less per computation. The same answer for every
  -- role, null included (role_rank stays the one definition of the ranks).
  _rank := case _role when 'viewer' then private.role_rank('viewer')
                      when 'user' then private.role_rank('user')
                      when 'admin' then private.role_rank('admin')
                      when 'master_admin' then private.role_rank('master_admin')
                      else private.role_rank(_role) end;
  select array[coalesce(_organization::text, ''),
               _rank::text,
               array_remove(array[
                 case when _rank >= private.role_rank('viewer') then 'viewer' end,
                 case when _rank >= private.role_rank('user') then 'user' end,
                 case when _rank >= private.role_rank('admin') then 'admin' end,
                 case when _rank >= private.role_rank('master_admin') then 'master_admin' end
               ], null)::text,
               coalesce(private.second_factor_refusal(_uid), ''),
               coalesce(array_agg(a.name) filter (where not a.can_view), '{}')::text,
               coalesce(array_agg(a.name) filter (where not a.can_edit), '{}')::text]
    into _context
    from private.member_category_access_rows a
   where a.user_id = _uid;
  if current_setting('steward.caller_context', true) is distinct from 'written' then
    -- Two statements of one expression each, which PL/pgSQL evaluates without the executor
    -- (one statement of two took a plan's whole start and end).
    perform set_config('steward.caller', _context::text, true);
    perform set_config('steward.caller_context', _key, true);
  end if;
  return _context;
end
$$;
