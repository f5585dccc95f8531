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

-- ============================================================================================
-- Issue 24: recovery codes, a way back after losing the phone
-- ============================================================================================
-- GoTrue has no recovery codes; these are Steward's, in the database, so they work alike on the
-- embedded server and on hosted Supabase. A member with a verified factor makes ten one-time
-- codes (in a session that proved the factor; making new ones voids the old). Someone who lost
-- the phone signs in with the password and gives one code instead of the authenticator's: the
-- code is spent, the member's factors are removed and their other sessions end (as a master
-- admin's `remove_member_two_factor` does), and the app asks them to set up two-factor sign-in
-- again. A code is as strong as the authenticator's step it replaces: it needs the password
-- first, is 48 random bits, is stored only as its SHA-256, works once, and wrong codes are
-- limited to 5 in 15 minutes per account.
create table private.recovery_codes (
  user_id uuid not null references auth.users (id) on delete cascade,
  code_hash text not null,
  created_at timestamptz not null default now(),
  primary key (user_id, code_hash)
);

create table private.recovery_code_failures (
  user_id uuid not null references auth.users (id) on delete cascade,
  failed_at timestamptz not null default now()
);

create index recovery_code_failures_user_id_failed_at_idx
  on private.recovery_code_failures (user_id, failed_at);

alter table private.recovery_codes enable row level security;
alter table private.recovery_code_failures enable row level security;

-- A code as typed: lower case, without spaces or dashes.
create function private.recovery_code_hash(code text)
returns text
language sql
immutable
set search_path = ''
as $$
  select encode(sha256(convert_to(
    regexp_replace(lower(coalesce(code, '')), '[^0-9a-z]', '', 'g'), 'UTF8')), 'hex')
$$;

-- Ten new codes for the caller, shown once (`xxxx-xxxx-xxxx`, 48 random bits each from the
-- server's cryptographic generator); the earlier ones stop working.
create function public.generate_recovery_codes()
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  _uid uuid := (select auth.uid());
  _codes text[];
begin
  if _uid is null then
    raise exception 'User not authenticated';
  end if;
  if not exists (select 1 from auth.mfa_factors f where f.user_id = _uid and f.status = 'verified') then
    raise exception 'Set up two-factor sign-in first';
  end if;
  if not private.session_is_aal2() then
    raise exception 'Sign in with your two-factor code first';
  end if;
  select array_agg(substr(h, 1, 4) || '-' || substr(h, 5, 4) || '-' || substr(h, 9, 4))
  into _codes
  from (select replace(gen_random_uuid()::text, '-', '') as h from generate_series(1, 10)) g;
  delete from private.recovery_codes r where r.user_id = _uid;
  insert into private.recovery_codes (user_id, code_hash)
  select _uid, private.recovery_code_hash(c) from unnest(_codes) c;
  return _codes;
end
$$;

-- How many unused codes the caller has.
create function public.recovery_codes_left()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from private.recovery_codes r where r.user_id = (select auth.uid())
$$;

-- Instead of the authenticator's code, in the session the password opened: spends the code,
-- removes the caller's factors (so this session reaches everything again) and ends their other
-- sessions. Answers the number of factors removed.
create function public.redeem_recovery_code(code text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _uid uuid := (select auth.uid());
  _session text := (select auth.jwt()) ->> 'session_id';
  _organization uuid;
  _name text;
  _removed integer;
begin
  if _uid is null then
    raise exception 'User not authenticated';
  end if;
  -- Wrong codes wait their turn per account, so that guesses cannot be made in parallel.
  perform pg_advisory_xact_lock(hashtextextended('recovery:' || _uid::text, 0));
  if (select count(*) from private.recovery_code_failures f
      where f.user_id = _uid and f.failed_at > now() - interval '15 minutes') >= 5 then
    raise exception 'Too many wrong recovery codes; please try again in 15 minutes';
  end if;
  delete from private.recovery_codes r
  where r.user_id = _uid and r.code_hash = private.recovery_code_hash(redeem_recovery_code.code);
  if not found then
    insert into private.recovery_code_failures (user_id) values (_uid);
    delete from private.recovery_code_failures f
    where f.user_id = _uid and f.failed_at < now() - interval '1 day';
    -- The failure must be kept although the call fails: answer without raising.
    return -1;
  end if;
  delete from private.recovery_codes r where r.user_id = _uid;
  delete from private.recovery_code_failures f where f.user_id = _uid;
  delete from auth.mfa_factors f where f.user_id = _uid;
  get diagnostics _removed = row_count;
  delete from auth.sessions s
  where s.user_id = _uid and s.id::text is distinct from _session;
  select p.organization_id, private.display_name(p) into _organization, _name
  from public.user_profiles p where p.id = _uid;
  if _organization is not null then
    perform private.log_activity(_organization, 'member.recovery_code_used', null, _name,
      jsonb_build_object('member_id', _uid));
  end if;
  return _removed;
end
$$;

revoke all on private.recovery_codes, private.recovery_code_failures
  from public, anon, authenticated, service_role;
revoke all on function private.recovery_code_hash(text) from public, anon, authenticated;
revoke all on function public.generate_recovery_codes() from public, anon, authenticated;
revoke all on function public.recovery_codes_left() from public, anon, authenticated;
revoke all on function public.redeem_recovery_code(text) from public, anon, authenticated;
grant execute on function public.generate_recovery_codes() to authenticated;
grant execute on function public.recovery_codes_left() to authenticated;
grant execute on function public.redeem_recovery_code(text) to authenticated;
