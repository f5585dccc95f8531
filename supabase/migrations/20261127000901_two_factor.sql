-- Two-factor sign-in (TOTP, served by the auth service's /auth/v1/factors): an organisation's
-- master admin may require it of its admins and master admins. The rule is the database's:
-- while it is on, an admin whose session has not proved a second factor (`aal` claim `aal1`)
-- reaches nothing of the organisation: every policy and every rpc function that looks up the
-- caller (`caller_organization_id`, `caller_profile`) refuses with one clear message, and the
-- app leads the admin to enrol or to enter a code. Members (role `user`) are not concerned.

alter table public.organizations
  add column require_two_factor_for_admins boolean not null default false;

-- ============================================================================================
-- Helpers
-- ============================================================================================

-- Whether this user must sign in with a second factor: an active admin or master admin of an
-- organisation that requires it. Also read by the auth service before a last factor is removed.
create function private.two_factor_required_for(user_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((
    select o.require_two_factor_for_admins
    from public.user_profiles p
    join public.organizations o on o.id = p.organization_id
    where p.id = two_factor_required_for.user_id
      and p.is_active
      and private.role_rank(p.role) >= private.role_rank('admin')
  ), false)
$$;

-- Whether the request's session proved a second factor (the access token's `aal`).
create function private.session_is_aal2()
returns boolean
language sql
stable
set search_path = ''
as $$
  select coalesce((select auth.jwt()) ->> 'aal', 'aal1') = 'aal2'
$$;

-- The refusal, in the words the app shows.
create function private.require_second_factor(user_id uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if user_id is not null and private.two_factor_required_for(user_id)
     and not private.session_is_aal2() then
    raise exception 'Two-factor sign-in is required for admins of this organization'
      using errcode = '42501',
            hint = 'Set up two-factor sign-in in your profile, or sign in with your code.';
  end if;
end
$$;

-- The caller's organisation for the policies, as before, but refused for an admin who must
-- and did not prove a second factor.
create or replace function private.caller_organization_id(minimum_role text default 'user')
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _uid uuid := (select auth.uid());
  _organization uuid;
begin
  select p.organization_id into _organization
  from public.user_profiles p
  where p.id = _uid
    and p.is_active
    and private.role_rank(p.role) >= private.role_rank(minimum_role);
  if _organization is not null then
    perform private.require_second_factor(_uid);
  end if;
  return _organization;
end
$$;

-- The caller's profile for the rpc functions, as before, with the same refusal.
create or replace function private.caller_profile()
returns public.user_profiles
language plpgsql
security definer
set search_path = ''
as $$
declare
  _uid uuid := auth.uid();
  _profile public.user_profiles;
begin
  if _uid is null then
    raise exception 'User not authenticated';
  end if;
  select * into _profile from public.user_profiles p where p.id = _uid;
  if not found then
    insert into public.user_profiles (id, email)
    select u.id, coalesce(u.email, '') from auth.users u where u.id = _uid
    on conflict (id) do nothing;
    select * into _profile from public.user_profiles p where p.id = _uid;
    if not found then
      raise exception 'User not authenticated';
    end if;
  end if;
  perform private.require_second_factor(_uid);
  return _profile;
end
$$;

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
-- sessions, so they sign in with their password alone and enrol again.
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
  return _removed;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function private.two_factor_required_for(uuid) from public, anon, authenticated;
revoke all on function private.session_is_aal2() from public, anon, authenticated;
revoke all on function private.require_second_factor(uuid) from public, anon, authenticated;
revoke all on function public.two_factor_status() from public, anon, authenticated;
revoke all on function public.set_two_factor_requirement(boolean) from public, anon, authenticated;
revoke all on function public.members_with_two_factor() from public, anon, authenticated;
revoke all on function public.remove_member_two_factor(uuid) from public, anon, authenticated;
grant execute on function public.two_factor_status() to authenticated;
grant execute on function public.set_two_factor_requirement(boolean) to authenticated;
grant execute on function public.members_with_two_factor() to authenticated;
grant execute on function public.remove_member_two_factor(uuid) to authenticated;
