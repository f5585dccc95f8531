-- The second factor's refusal reads what decides it in one statement (issue 27 item 3): whether
-- the user must prove a second factor (an active admin of an organisation that requires it, as
-- private.two_factor_required_for says) and whether they enrolled one, then the session's proof
-- only when either holds; the same refusals, in the same order. Every policy reaches it, through
-- caller_organization_id and second_factor_checked, four to six times in a member's property
-- edit: the nested calls cost about 0.2 ms of it on PGlite (bench/RESULTS.md, "The writes'
-- SQL").

create or replace function private.require_second_factor(user_id uuid)
returns void
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
    return;
  end if;
  select exists (select 1
                   from public.user_profiles p
                   join public.organizations o on o.id = p.organization_id
                  where p.id = require_second_factor.user_id
                    and p.is_active
                    and private.role_rank(p.role) >= private.role_rank('admin')
                    and o.require_two_factor_for_admins),
         exists (select 1 from auth.mfa_factors f
                  where f.user_id = require_second_factor.user_id and f.status = 'verified')
    into _required, _enrolled;
  if not (_required or _enrolled) or private.session_is_aal2() then
    return;
  end if;
  if _required then
    raise exception 'Two-factor sign-in is required for admins of this organization'
      using errcode = '42501',
            hint = 'Set up two-factor sign-in in your profile, or sign in with your code.';
  end if;
  raise exception 'Sign in with your two-factor code first'
    using errcode = '42501',
          hint = 'You set up two-factor sign-in: enter the code of your authenticator app.';
end
$$;
