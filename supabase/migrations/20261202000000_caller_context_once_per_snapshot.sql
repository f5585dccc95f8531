-- The caller's row-level-security context computed once per snapshot (issue 27 items 2–3): the
-- policy helpers caller_organization_id, second_factor_checked, caller_hidden_categories and
-- caller_uneditable_categories keep their signatures, and the first call of a statement's
-- snapshot computes the caller's organisation, roles, second-factor refusal and hidden and
-- uneditable categories for all of them (private.load_caller_context explains the key and
-- why it is sound). A member's property edit called them ten times, about 1 ms of its 3.8 ms
-- on PGlite (bench/RESULTS.md, "The writes' SQL").

-- Whether this user's session is refused for want of a second factor, and why: null when it
-- may act, 'required' when the organisation requires it of this admin, 'enrolled' when they set
-- one up. What decides it is read in one statement: whether the user must
-- (two_factor_required_for's condition) and whether they enrolled a factor; the session's proof
-- only when either holds.
-- Asking two_factor_required_for and then the factors cost a property edit about 0.2 ms on
-- PGlite. The caller's context (below) keeps its answer for the statement's snapshot.
create function private.second_factor_refusal(user_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _required boolean;
  _enrolled boolean;
begin
  if user_id is null then
    return null;
  end if;
  select exists (select 1
                   from public.user_profiles p
                   join public.organizations o on o.id = p.organization_id
                  where p.id = second_factor_refusal.user_id
                    and p.is_active
                    and private.role_rank(p.role) >= private.role_rank('admin')
                    and o.require_two_factor_for_admins),
         exists (select 1 from auth.mfa_factors f
                  where f.user_id = second_factor_refusal.user_id and f.status = 'verified')
    into _required, _enrolled;
  if not (_required or _enrolled) or private.session_is_aal2() then
    return null;
  end if;
  return case when _required then 'required' else 'enrolled' end;
end
$$;

-- The refusal, in the words the app shows, for second_factor_refusal's answer (nothing for
-- null). Raised anew on every call of a helper that finds it, from a kept context or not.
create function private.refuse_second_factor(refusal text)
returns void
language plpgsql
immutable
set search_path = ''
as $$
begin
  if refusal = 'required' then
    raise exception 'Two-factor sign-in is required for admins of this organization'
      using errcode = '42501',
            hint = 'Set up two-factor sign-in in your profile, or sign in with your code.';
  elsif refusal = 'enrolled' then
    raise exception 'Sign in with your two-factor code first'
      using errcode = '42501',
            hint = 'You set up two-factor sign-in: enter the code of your authenticator app.';
  end if;
end
$$;

-- The refusal for rpc functions that look the user up themselves (caller_profile and others).
create or replace function private.require_second_factor(user_id uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.refuse_second_factor(private.second_factor_refusal(user_id));
end
$$;

-- The caller's context, computed once per snapshot. The policy helpers below
-- (caller_organization_id, second_factor_checked, caller_hidden_categories,
-- caller_uneditable_categories) are each an InitPlan of every policy that names them: a
-- member's property edit called them ten times, each reading the same rows (about 1 ms of a
-- 3.8 ms edit on PGlite). The first call of a snapshot computes all of it here and keeps it in
-- transaction-local settings (`steward.caller_*`) under a key; the others read the settings.
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
-- it). A rolled-back subtransaction restores the settings as they were before it, with its
-- writes undone. Only SQL can set these settings (the API sets claims and its own request
-- settings, and exposes no function of pg_catalog), and a value is used only under its exact
-- key. The rules themselves stay in their one statement each: the profile's role below,
-- second_factor_refusal and member_category_access.
create function private.load_caller_context(key text)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _uid uuid := auth.uid();
  _role text;
  _rank integer;
  _organization uuid;
  _hidden text[];
  _uneditable text[];
begin
  select p.role, case when p.is_active then p.organization_id end into _role, _organization
    from public.user_profiles p
   where p.id = _uid;
  select coalesce(array_agg(a.name) filter (where not a.can_view), '{}'),
         coalesce(array_agg(a.name) filter (where not a.can_edit), '{}')
    into _hidden, _uneditable
    from private.member_category_access(_uid) a;
  _rank := private.role_rank(_role);
  -- The minimum roles the caller's role meets, so that caller_organization_id answers any of
  -- them without a call of role_rank (each costs about 25 µs on PGlite; with constants, as
  -- here, Postgres computes them once when it plans the statement).
  perform set_config('steward.caller_organization', coalesce(_organization::text, ''), true),
          set_config('steward.caller_rank', _rank::text, true),
          set_config('steward.caller_roles', array_remove(array[
                       case when _rank >= private.role_rank('viewer') then 'viewer' end,
                       case when _rank >= private.role_rank('user') then 'user' end,
                       case when _rank >= private.role_rank('admin') then 'admin' end,
                       case when _rank >= private.role_rank('master_admin') then 'master_admin' end
                     ], null)::text, true),
          set_config('steward.caller_second_factor',
                     coalesce(private.second_factor_refusal(_uid), ''), true),
          set_config('steward.caller_hidden', _hidden::text, true),
          set_config('steward.caller_uneditable', _uneditable::text, true);
  if current_setting('steward.caller_context', true) is distinct from 'written' then
    perform set_config('steward.caller_context', key, true);
  end if;
end
$$;

-- A write to a table the caller's context reads: the context is computed anew from here to the
-- end of the transaction (see load_caller_context). A statement-level trigger on each of them.
create function private.caller_context_written()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  perform set_config('steward.caller_context', 'written', true);
  return null;
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
  -- The context's key (see load_caller_context); the same expression in each helper.
  _key text := array[pg_current_snapshot()::text,
                     current_setting('request.jwt.claim.sub', true),
                     current_setting('request.jwt.claim', true),
                     current_setting('request.jwt.claims', true)]::text;
begin
  if current_setting('steward.caller_context', true) is distinct from _key then
    perform private.load_caller_context(_key);
  end if;
  if current_setting('steward.caller_second_factor') <> '' then
    perform private.refuse_second_factor(current_setting('steward.caller_second_factor'));
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
-- snapshot (see load_caller_context).
create or replace function private.caller_organization_id(minimum_role text default 'user')
returns uuid
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
begin
  if current_setting('steward.caller_context', true) is distinct from _key then
    perform private.load_caller_context(_key);
  end if;
  if current_setting('steward.caller_organization') = ''
     or (not minimum_role = any (current_setting('steward.caller_roles')::text[])
         and current_setting('steward.caller_rank')::integer < private.role_rank(minimum_role)) then
    return null;
  end if;
  if current_setting('steward.caller_second_factor') <> '' then
    perform private.refuse_second_factor(current_setting('steward.caller_second_factor'));
  end if;
  return current_setting('steward.caller_organization')::uuid;
end
$$;

-- The caller's organisation's categories the caller may not view, by name; empty when none is
-- restricted (or the caller is no active member: the policies' organisation test refuses
-- those). Policies call it as `(select private.caller_hidden_categories())`, once per
-- statement; the caller's context, computed from member_category_access, is kept for the
-- snapshot (private.load_caller_context).
create or replace function private.caller_hidden_categories()
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
begin
  if current_setting('steward.caller_context', true) is distinct from _key then
    perform private.load_caller_context(_key);
  end if;
  return current_setting('steward.caller_hidden')::text[];
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
declare
  _key text := array[pg_current_snapshot()::text,
                     current_setting('request.jwt.claim.sub', true),
                     current_setting('request.jwt.claim', true),
                     current_setting('request.jwt.claims', true)]::text;
begin
  if current_setting('steward.caller_context', true) is distinct from _key then
    perform private.load_caller_context(_key);
  end if;
  return current_setting('steward.caller_uneditable')::text[];
end
$$;

-- Every table the caller's context reads marks it written (private.load_caller_context).
create trigger user_profiles_caller_context_written
  after insert or update or delete or truncate on public.user_profiles
  for each statement execute function private.caller_context_written();

create trigger organizations_caller_context_written
  after insert or update or delete or truncate on public.organizations
  for each statement execute function private.caller_context_written();

create trigger mfa_factors_caller_context_written
  after insert or update or delete or truncate on auth.mfa_factors
  for each statement execute function private.caller_context_written();

-- Every table member_category_access reads marks the caller's context written
-- (private.load_caller_context); member_groups too, whose deletion removes rules and members.
create trigger document_categories_caller_context_written
  after insert or update or delete or truncate on public.document_categories
  for each statement execute function private.caller_context_written();

create trigger member_groups_caller_context_written
  after insert or update or delete or truncate on public.member_groups
  for each statement execute function private.caller_context_written();

create trigger member_group_members_caller_context_written
  after insert or update or delete or truncate on public.member_group_members
  for each statement execute function private.caller_context_written();

create trigger category_access_caller_context_written
  after insert or update or delete or truncate on public.category_access
  for each statement execute function private.caller_context_written();

revoke all on function private.second_factor_refusal(uuid) from public, anon, authenticated;
revoke all on function private.refuse_second_factor(text) from public, anon, authenticated;
revoke all on function private.load_caller_context(text) from public, anon, authenticated;
revoke all on function private.caller_context_written() from public, anon, authenticated;
