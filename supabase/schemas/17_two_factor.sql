-- Two-factor sign-in: what the app asks before it loads anything of the organisation, the
-- master admin's switch, and the admins' view of who has a second factor. The rule itself (an
-- admin who must and did not prove a second factor reaches nothing) and its helpers are in
-- 01_organizations_and_profiles.sql, where the caller is looked up.

-- ============================================================================================
-- Functions
-- ============================================================================================
-- What the app needs before it loads anything of the organisation: whether this user must
-- use a second factor, whether they have one, and whether this session proved it.
create function public.two_factor_status()
returns jsonb
language sql
stable
security definer
set search_path = ''
as $$
  select jsonb_build_object(
    'required', private.two_factor_required_for((select auth.uid())),
    'enrolled', exists (
      select 1 from auth.mfa_factors f
      where f.user_id = (select auth.uid()) and f.status = 'verified'),
    'session_verified', private.session_is_aal2()
  )
$$;

-- The master admin turns the requirement on or off. Turning it on needs a session that proved
-- a second factor, so that nobody locks themselves out.
create function public.set_two_factor_requirement(required boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or _me.role <> 'master_admin' then
    raise exception 'Only master admins can change the two-factor requirement';
  end if;
  if required is null then
    raise exception 'Choose whether two-factor sign-in is required';
  end if;
  if required and not private.session_is_aal2() then
    raise exception 'Set up two-factor sign-in for yourself and sign in with it first';
  end if;
  update public.organizations o
  set require_two_factor_for_admins = set_two_factor_requirement.required
  where o.id = _me.organization_id;
end
$$;

-- Admins see which members have a second factor (the members table shows it).
create function public.members_with_two_factor()
returns uuid[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to view two-factor sign-in';
  end if;
  return coalesce((
    select array_agg(distinct f.user_id)
    from auth.mfa_factors f
    join public.user_profiles p on p.id = f.user_id
    where p.organization_id = _me.organization_id and f.status = 'verified'
  ), '{}');
end
$$;

-- A member lost their phone: the master admin removes their second factors and ends their
-- sessions, so they sign in with their password alone and enrol again. The removal is recorded
-- in the organisation's history (kind member.two_factor_removed, naming the member), in the
-- same transaction; nothing is recorded when the member had no factor to remove.
create function public.remove_member_two_factor(user_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
  _removed integer;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or _me.role <> 'master_admin' then
    raise exception 'Only master admins can remove a member''s two-factor sign-in';
  end if;
  if remove_member_two_factor.user_id = _me.id then
    raise exception 'Remove your own two-factor sign-in from your profile';
  end if;
  select * into _target
  from public.user_profiles p
  where p.id = remove_member_two_factor.user_id and p.organization_id = _me.organization_id;
  if not found then
    raise exception 'User not found';
  end if;
  delete from auth.mfa_factors f where f.user_id = _target.id;
  get diagnostics _removed = row_count;
  delete from auth.sessions s where s.user_id = _target.id;
  if _removed > 0 then
    perform private.log_activity(_me.organization_id, 'member.two_factor_removed', null,
      private.display_name(_target), jsonb_build_object('member_id', _target.id));
  end if;
  return _removed;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function public.two_factor_status() from public, anon, authenticated;
revoke all on function public.set_two_factor_requirement(boolean) from public, anon, authenticated;
revoke all on function public.members_with_two_factor() from public, anon, authenticated;
revoke all on function public.remove_member_two_factor(uuid) from public, anon, authenticated;
grant execute on function public.two_factor_status() to authenticated;
grant execute on function public.set_two_factor_requirement(boolean) to authenticated;
grant execute on function public.members_with_two_factor() to authenticated;
grant execute on function public.remove_member_two_factor(uuid) to authenticated;
