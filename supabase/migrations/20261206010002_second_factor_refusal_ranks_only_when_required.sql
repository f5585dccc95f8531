-- second_factor_refusal reads whether the user must prove a second factor as the one profile's
-- conditions in order, the organisation's requirement first, so that role_rank is called only
-- in an organisation that requires one (issue 27 item 3): as an EXISTS the planner tested the
-- role on the profile before the join, in every computation of the caller's context. In
-- process on PGlite (2,000 calls a statement, medians of 7 rounds alternated with the previous
-- definition): 25.9 → 22.8 µs a call for a user, 30.1 → 22.0 for an admin. The same answers.

-- Whether this user's session is refused for want of a second factor, and why: null when it
-- may act, 'required' when the organisation requires it of this admin, 'enrolled' when they set
-- one up. What decides it is read in one statement: whether the user must
-- (two_factor_required_for's condition) and whether they enrolled a factor; the session's proof
-- only when either holds.
-- Asking two_factor_required_for and then the factors cost a property edit about 0.2 ms on
-- PGlite. The caller's context (below) keeps its answer for the statement's snapshot.
-- The profile's row (one at most: the id is its key) is read as a value whose conditions are
-- tested in order, the organisation's requirement first, so that the role's rank (a call of
-- role_rank, which a `set` clause keeps from being inlined) is computed only for members of
-- an organisation that requires a second factor: as an EXISTS, the planner tested it on the
-- profile before the join, for every computation of the caller's context (22 against 26–30 µs
-- a call on PGlite).
create or replace function private.second_factor_refusal(user_id uuid)
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
  select coalesce((select o.require_two_factor_for_admins and p.is_active
                           and private.role_rank(p.role) >= private.role_rank('admin')
                      from public.user_profiles p
                      join public.organizations o on o.id = p.organization_id
                     where p.id = second_factor_refusal.user_id), false),
         exists (select 1 from auth.mfa_factors f
                  where f.user_id = second_factor_refusal.user_id and f.status = 'verified')
    into _required, _enrolled;
  if not (_required or _enrolled) or private.session_is_aal2() then
    return null;
  end if;
  return case when _required then 'required' else 'enrolled' end;
end
$$;
