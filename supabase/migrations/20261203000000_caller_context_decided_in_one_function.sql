-- The caller's context (issue 27 items 2–3): its key and the decision to compute it anew in one
-- function, private.caller_context, which the four policy helpers (caller_organization_id,
-- second_factor_checked, caller_hidden_categories, caller_uneditable_categories) call instead
-- of each writing out the same key and the same test. The key is a security rule: one helper
-- drifting to a weaker key would answer from another snapshot's or another caller's context.
-- The same key and the same soundness as 20261202000000_caller_context_once_per_snapshot; the
-- context is now kept whole in one setting instead of seven. Replaces load_caller_context.

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
-- member_category_access.
--
-- The context is one text array, kept whole in one setting (`steward.caller`) beside its key
-- (`steward.caller_context`): in seven settings it cost every computation seven `set_config`
-- calls and every helper a `current_setting` per value. Its elements, by position:
-- 1 the organisation in which the caller is an active member ('' for none); 2 the rank of the
-- caller's role (private.role_rank); 3 the minimum roles that role meets, as an array, so that
-- caller_organization_id answers any of them without a call of role_rank (each costs about
-- 25 µs on PGlite; with constants, as here, Postgres computes them once when it plans the
-- statement); 4 second_factor_refusal's answer ('' for none); 5 the categories the caller may
-- not view, and 6 those they may not add to or change, as arrays (member_category_access).
create function private.caller_context()
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _key text := array[pg_current_snapshot()::text,
                     current_setting('request.jwt.claim.sub', true),
                     current_setting('request.jwt.claim', true),
                     current_setting('request.jwt.claims', true)]::text;
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
  _rank := private.role_rank(_role);
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
    from private.member_category_access(_uid) a;
  if current_setting('steward.caller_context', true) is distinct from 'written' then
    perform set_config('steward.caller', _context::text, true),
            set_config('steward.caller_context', _key, true);
  end if;
  return _context;
end
$$;

-- True when the caller's session may act; otherwise the refusal is raised (never false).
create or replace function private.second_factor_checked()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _context text[] := private.caller_context();
begin
  if _context[4] <> '' then
    perform private.refuse_second_factor(_context[4]);
  end if;
  return true;
end
$$;

-- The one policy helper: the organisation in which the caller is an active member with at
-- least `minimum_role`, else null (anonymous, no profile, no organisation, deactivated, or a
-- lower role), and refused for an admin who must and did not prove a second factor. SECURITY
-- DEFINER so that it reads user_profiles without recursing into that table's own policies.
-- Policies call it as `(select private.caller_organization_id(...))`, which Postgres evaluates
-- once per statement (an InitPlan), not once per row; the caller's context is kept for the
-- snapshot (see private.caller_context).
create or replace function private.caller_organization_id(minimum_role text default 'user')
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _context text[] := private.caller_context();
begin
  if _context[1] = ''
     or (not minimum_role = any (_context[3]::text[])
         and _context[2]::integer < private.role_rank(minimum_role)) then
    return null;
  end if;
  if _context[4] <> '' then
    perform private.refuse_second_factor(_context[4]);
  end if;
  return _context[1]::uuid;
end
$$;
-- The caller's organisation's categories the caller may not view, by name; empty when none is
-- restricted (or the caller is no active member: the policies' organisation test refuses
-- those). Policies call it as `(select private.caller_hidden_categories())`, once per
-- statement; the caller's context, computed from member_category_access, is kept for the
-- snapshot (private.caller_context).
create or replace function private.caller_hidden_categories()
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (private.caller_context())[5]::text[];
end
$$;

-- The caller's organisation's categories the caller may not add to or change (a Viewer: all).
create or replace function private.caller_uneditable_categories()
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (private.caller_context())[6]::text[];
end
$$;

drop function private.load_caller_context(text);

revoke all on function private.caller_context() from public, anon, authenticated;
