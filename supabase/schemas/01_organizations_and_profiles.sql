-- Organisations and user profiles: who belongs where, with which role, and the helpers every
-- other file builds on. private.caller_organization_id() answers "the organisation in which the
-- caller is an active member (with at least this role)" with one indexed lookup per statement,
-- so policies stay cheap on large tables.
--
-- Two-factor sign-in (TOTP, served by the auth service's /auth/v1/factors): an organisation's
-- master admin may require it of its admins and master admins (17_two_factor.sql). The rule is
-- the database's: while it is on, an admin whose session has not proved a second factor (`aal`
-- claim `aal1`) reaches nothing of the organisation: every policy and every rpc function that
-- looks up the caller (`caller_organization_id`, `caller_profile`) refuses with one clear
-- message, and the app leads the admin to enrol or to enter a code. Members (role `user`) are
-- not concerned.

-- ============================================================================================
-- Private schema
-- ============================================================================================
-- Not exposed through the API (only `public` is) and not usable by the API roles: it holds the
-- SECURITY DEFINER helpers, trigger functions and secrets. Policies and functions that refer to
-- these objects store them by OID, so the API roles need EXECUTE on the policy helper only.
create schema if not exists private;

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.organizations (
  id uuid primary key default gen_random_uuid(),
  name text not null
    constraint organizations_name_trimmed check (name !~ '^[[:space:]]|[[:space:]]$')
    constraint organizations_name_length check (char_length(name) between 1 and 200),
  -- auth.users rather than user_profiles: a second foreign key between organizations and
  -- user_profiles would make `organizations(...)` embeds ambiguous for PostgREST.
  created_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Whether admins must sign in with a second factor (set by set_two_factor_requirement).
  require_two_factor_for_admins boolean not null default false
);

create table public.user_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  email text not null,
  -- A member's own name, set in the profile dialog of the navigation bar: no spaces around it
  -- and not empty (no name is null), as invite_user stores the names it is given.
  full_name text
    constraint user_profiles_full_name_length check (char_length(full_name) <= 200)
    constraint user_profiles_full_name_trimmed
      check (full_name <> '' and full_name !~ '^[[:space:]]|[[:space:]]$'),
  role text not null default 'user'
    constraint user_profiles_role_check check (role in ('viewer', 'user', 'admin', 'master_admin')),
  is_active boolean not null default true,
  organization_id uuid references public.organizations (id) on delete set null,
  invited_by uuid references public.user_profiles (id) on delete set null,
  invited_at timestamptz,
  last_login timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Members turn their own reminder e-mails off here (the update grant below is theirs).
  email_reminders boolean not null default true
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- The member listing (organization_id filter, newest first) and the policy lookups.
create index user_profiles_organization_id_created_at_idx
  on public.user_profiles (organization_id, created_at desc);
create index user_profiles_email_lower_idx on public.user_profiles (lower(email));
create index user_profiles_invited_by_idx on public.user_profiles (invited_by);
create index organizations_created_by_idx on public.organizations (created_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- viewer < user < admin < master_admin; unknown roles rank below everything. A Viewer reads
-- what they may view and changes nothing: every read passes `'viewer'` as the minimum role,
-- every write keeps the default `'user'`.
create function private.role_rank(role text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case role when 'viewer' then 1 when 'user' then 2 when 'admin' then 3
              when 'master_admin' then 4 else 0 end
$$;

-- Whitespace of every kind off both ends, as JavaScript's trim() does for what a form sends
-- (btrim() removes spaces only).
create function private.trim_whitespace(value text)
returns text
language sql
immutable
set search_path = ''
as $$
  select regexp_replace(value, '^[[:space:]]+|[[:space:]]+$', '', 'g')
$$;

-- Whether this user must sign in with a second factor: an active admin or master admin of an
-- organisation that requires it. Also read by the auth service before a last factor is removed;
-- second_factor_refusal below reads the same condition in its own statement (keep them alike).
-- This and the policy helpers below are PL/pgSQL, not SQL, although each is one statement:
-- Postgres keeps a PL/pgSQL function's plans for the session, while a SQL function with a
-- `set` clause (which cannot be inlined) is planned again on every call, and policies call
-- them on every statement (issue 23: 0.23 ms of a 1 ms page on PostgreSQL).
create function private.two_factor_required_for(user_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _required boolean;
begin
  select o.require_two_factor_for_admins into _required
    from public.user_profiles p
    join public.organizations o on o.id = p.organization_id
   where p.id = two_factor_required_for.user_id
     and p.is_active
     and private.role_rank(p.role) >= private.role_rank('admin');
  return coalesce(_required, false);
end
$$;

-- Whether the request's session proved a second factor (the access token's `aal`).
create function private.session_is_aal2()
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2';
end
$$;

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
create function private.require_second_factor(user_id uuid)
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
create function private.caller_context()
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

-- A write to a table the caller's context reads: the context is computed anew from here to the
-- end of the transaction (see caller_context). A statement-level trigger on each of them.
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
create function private.second_factor_checked()
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
create function private.caller_organization_id(minimum_role text default 'user')
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

-- The caller's profile for the rpc functions, which check role and organisation themselves,
-- with the same refusal. Creates the profile when it is missing (an auth user that predates
-- these tables).
create function private.caller_profile()
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

-- Keeps updated_at honest whatever the client sends.
create function private.touch_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end
$$;

-- A profile for every new auth user: role user, active, e-mail copied (specification §4).
create function private.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.user_profiles (id, email, last_login)
  values (new.id, coalesce(new.email, ''), new.last_sign_in_at)
  on conflict (id) do nothing;
  return new;
end
$$;

-- The auth service stamps last_sign_in_at on every password sign-in; the profile's last_login
-- (shown on the member list) follows it, and so does the e-mail if it ever changes.
create function private.handle_user_updated()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.user_profiles p
  set last_login = new.last_sign_in_at,
      email = coalesce(new.email, p.email)
  where p.id = new.id;
  return new;
end
$$;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function private.handle_new_user();

create trigger on_auth_user_updated
  after update of last_sign_in_at, email on auth.users
  for each row
  when (old.last_sign_in_at is distinct from new.last_sign_in_at
        or old.email is distinct from new.email)
  execute function private.handle_user_updated();

create trigger organizations_touch_updated_at
  before update on public.organizations
  for each row execute function private.touch_updated_at();

create trigger user_profiles_touch_updated_at
  before update on public.user_profiles
  for each row execute function private.touch_updated_at();

-- Every table the caller's context reads marks it written (private.caller_context).
create trigger user_profiles_caller_context_written
  after insert or update or delete or truncate on public.user_profiles
  for each statement execute function private.caller_context_written();

create trigger organizations_caller_context_written
  after insert or update or delete or truncate on public.organizations
  for each statement execute function private.caller_context_written();

create trigger mfa_factors_caller_context_written
  after insert or update or delete or truncate on auth.mfa_factors
  for each statement execute function private.caller_context_written();

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.organizations enable row level security;

alter table public.user_profiles enable row level security;

create policy "members read their organisation"
  on public.organizations for select to authenticated
  using (id = (select private.caller_organization_id('viewer')));

create policy "users read their own profile and members read their organisation's profiles"
  on public.user_profiles for select to authenticated
  using (
    id = (select auth.uid())
    or organization_id = (select private.caller_organization_id('viewer'))
  );

-- The specification's client inserts a profile when none is found (PGRST116). The trigger makes
-- that path rare; when it happens, only a plain profile of one's own may be created.
create policy "users create their own plain profile"
  on public.user_profiles for insert to authenticated
  with check (
    id = (select auth.uid())
    and lower(email) = lower((select auth.jwt() ->> 'email'))
    and role = 'user'
    and is_active
    and organization_id is null
    and invited_by is null
    and invited_at is null
    and last_login is null
  );

-- Column grants below limit this to full_name and email_reminders; role, organisation and activity change only
-- through the rpc functions.
create policy "active users update their own profile"
  on public.user_profiles for update to authenticated
  using (id = (select auth.uid()) and is_active)
  with check (id = (select auth.uid()));

-- ============================================================================================
-- Functions
-- ============================================================================================
-- Any signed-in user without an organisation creates one and becomes its master admin.
create function public.create_organization(name text)
returns public.organizations
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _name text := private.trim_whitespace(coalesce(create_organization.name, ''));
  _organization public.organizations;
begin
  -- Lock the profile so that two concurrent calls cannot both create an organisation.
  select * into _me from public.user_profiles p where p.id = _me.id for update;
  if _me.organization_id is not null then
    raise exception 'User already belongs to an organization';
  end if;
  if _name = '' then
    raise exception 'Organization name is required';
  end if;
  if char_length(_name) > 200 then
    raise exception 'Organization name must be at most 200 characters';
  end if;

  insert into public.organizations (name, created_by)
  values (_name, _me.id)
  returning * into _organization;

  update public.user_profiles p
  set organization_id = _organization.id, role = 'master_admin', is_active = true
  where p.id = _me.id;
  return _organization;
end
$$;

-- Master admins move other members of their organisation between viewer, user and admin.
create function public.update_user_role(user_id uuid, new_role text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or _me.role <> 'master_admin' then
    raise exception 'Only master admins can change user roles';
  end if;
  if new_role is null or new_role not in ('viewer', 'user', 'admin') then
    raise exception 'Role must be viewer, user or admin';
  end if;
  if update_user_role.user_id = _me.id then
    raise exception 'You cannot change your own role';
  end if;
  select * into _target
  from public.user_profiles p
  where p.id = update_user_role.user_id and p.organization_id = _me.organization_id
  for update;
  if not found then
    raise exception 'User not found';
  end if;
  if _target.role = 'master_admin' then
    raise exception 'Cannot change the role of a master admin';
  end if;
  update public.user_profiles p set role = new_role where p.id = _target.id;
end
$$;

-- Shared by deactivate_user and reactivate_user; `verb` words the errors
-- ("Insufficient permissions to deactivate users", "You cannot deactivate yourself", …).
create function private.set_user_active(target uuid, active boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _verb text := case when active then 'reactivate' else 'deactivate' end;
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to % users', _verb;
  end if;
  if target = _me.id then
    raise exception 'You cannot % yourself', _verb;
  end if;
  select * into _target
  from public.user_profiles p
  where p.id = target and p.organization_id = _me.organization_id
  for update;
  if not found then
    raise exception 'User not found';
  end if;
  if _target.role = 'master_admin' then
    raise exception 'Master admins cannot be %d', _verb;
  end if;
  update public.user_profiles p set is_active = active where p.id = _target.id;
end
$$;

create function public.deactivate_user(user_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.set_user_active(user_id, false)
$$;

create function public.reactivate_user(user_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.set_user_active(user_id, true)
$$;

-- An admin sends a member of their organisation a link to set a new password (a volunteer who
-- forgot theirs and cannot reach the sign-in page's "Forgot your password?", say). The link
-- goes to the member's own address, never to the admin: the admin learns nothing that opens
-- the account. The auth service's job `auth.mail` writes the token and the message when it
-- runs (server/mail/account-mail-job.ts), so no token is ever stored readable.
create function public.send_password_reset(user_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
  _delivery text;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to send password reset links';
  end if;
  select * into _target
  from public.user_profiles p
  where p.id = send_password_reset.user_id and p.organization_id = _me.organization_id;
  if not found then
    raise exception 'User not found';
  end if;
  if not _target.is_active then
    raise exception 'This member is deactivated';
  end if;
  -- One link a minute per member, and a bound per organisation, so that the installation's
  -- SMTP account cannot be turned against a member's inbox.
  if exists (
    select 1 from private.jobs j
    where j.kind = 'auth.mail' and j.payload ->> 'user_id' = _target.id::text
      and j.created_at > now() - interval '1 minute'
  ) then
    raise exception 'A reset link was sent to this member less than a minute ago';
  end if;
  if (select count(*) from private.jobs j
      where j.kind = 'auth.mail' and j.organization_id = _me.organization_id
        and j.created_at > now() - interval '1 hour') >= 100 then
    raise exception 'Too many reset links sent in the last hour; please try again later';
  end if;

  perform private.enqueue_job(
    'auth.mail',
    jsonb_build_object('user_id', _target.id, 'kind', 'recovery', 'redirect_to', null),
    _me.organization_id, 'auth.mail:recovery:' || _target.id, now(), 5);
  select s.delivery into _delivery from private.mail_settings s;
  -- `queued`: the link is on its way; `outbox`: this installation has no SMTP, nothing is sent.
  return case _delivery when 'smtp' then 'queued' else 'outbox' end;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on schema private from public, anon, authenticated;

-- Supabase grants everything in `public` to the API roles by default; take it back and grant
-- only what the policies above are meant to govern.
revoke all on public.organizations, public.user_profiles from anon, authenticated;
grant select on public.organizations to authenticated;
grant select on public.user_profiles to authenticated;
grant insert (id, email, full_name, role, is_active) on public.user_profiles to authenticated;
grant update (full_name, email_reminders) on public.user_profiles to authenticated;

revoke all on function private.role_rank(text) from public, anon, authenticated;
revoke all on function private.trim_whitespace(text) from public, anon, authenticated;
revoke all on function private.two_factor_required_for(uuid) from public, anon, authenticated;
revoke all on function private.session_is_aal2() from public, anon, authenticated;
revoke all on function private.second_factor_refusal(uuid) from public, anon, authenticated;
revoke all on function private.refuse_second_factor(text) from public, anon, authenticated;
revoke all on function private.require_second_factor(uuid) from public, anon, authenticated;
revoke all on function private.caller_context() from public, anon, authenticated;
revoke all on function private.caller_context_written() from public, anon, authenticated;
revoke all on function private.second_factor_checked() from public, anon, authenticated;
-- Policies run their functions as the querying role.
grant execute on function private.second_factor_checked() to authenticated;
revoke all on function private.caller_organization_id(text) from public, anon, authenticated;
revoke all on function private.caller_profile() from public, anon, authenticated;
revoke all on function private.touch_updated_at() from public, anon, authenticated;
revoke all on function private.handle_new_user() from public, anon, authenticated;
revoke all on function private.handle_user_updated() from public, anon, authenticated;
revoke all on function private.set_user_active(uuid, boolean) from public, anon, authenticated;
-- Policies run with the caller's privileges, so the policy helper must be executable by the
-- signed-in role (the schema itself stays unusable to it).
grant execute on function private.caller_organization_id(text) to authenticated;

revoke all on function public.create_organization(text) from public, anon, authenticated;
revoke all on function public.update_user_role(uuid, text) from public, anon, authenticated;
revoke all on function public.deactivate_user(uuid) from public, anon, authenticated;
revoke all on function public.reactivate_user(uuid) from public, anon, authenticated;
revoke all on function public.send_password_reset(uuid) from public, anon, authenticated;
grant execute on function public.create_organization(text) to authenticated;
grant execute on function public.update_user_role(uuid, text) to authenticated;
grant execute on function public.deactivate_user(uuid) to authenticated;
grant execute on function public.reactivate_user(uuid) to authenticated;
grant execute on function public.send_password_reset(uuid) to authenticated;

-- ============================================================================================
-- Issue 24: the organisation's own settings, a master admin who can always sign in, reset
-- links an admin passes on
-- ============================================================================================
-- Admins rename the organisation and choose its time zone (the reminders' clock, kept in
-- reminder_settings.time_zone) in Settings, in one transaction.
create function public.update_organization(name text, time_zone text)
returns public.organizations
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _name text := private.trim_whitespace(coalesce(update_organization.name, ''));
  _zone text := nullif(private.trim_whitespace(update_organization.time_zone), '');
  _organization public.organizations;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Only admins can change the organization settings';
  end if;
  if _name = '' then
    raise exception 'Organization name is required';
  end if;
  if char_length(_name) > 200 then
    raise exception 'Organization name must be at most 200 characters';
  end if;
  update public.organizations o set name = _name
  where o.id = _me.organization_id and o.name is distinct from _name;
  if _zone is not null then
    insert into public.reminder_settings as s (organization_id, time_zone)
    values (_me.organization_id, _zone)
    on conflict (organization_id) do update set time_zone = excluded.time_zone
      where s.time_zone is distinct from excluded.time_zone;
  end if;
  select * into _organization from public.organizations o where o.id = _me.organization_id;
  return _organization;
end
$$;

-- A master admin makes an active admin of the organisation a master admin too, so that a
-- master admin who loses her phone or password can be helped by another (the specification
-- lets nobody change a master admin's role afterwards, so the organisation keeps both).
create function public.make_master_admin(user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if _me.role <> 'master_admin' then
    raise exception 'Only master admins can make a master admin';
  end if;
  select * into _target from public.user_profiles p
  where p.id = make_master_admin.user_id and p.organization_id = _me.organization_id
  for update;
  if not found then
    raise exception 'User not found';
  end if;
  if _target.role = 'master_admin' then
    raise exception 'This member is already a master admin';
  end if;
  if _target.role <> 'admin' or not _target.is_active then
    raise exception 'Only an active admin can become a master admin';
  end if;
  update public.user_profiles p set role = 'master_admin' where p.id = _target.id;
end
$$;

-- Whatever path changes a profile (the functions above, the service role, a future function),
-- an organisation keeps at least one active master admin: the last one cannot lose the role,
-- be deactivated or leave. Deleting the organisation itself (its profiles lose it by the
-- foreign key, after it is gone) is not held back.
create function private.keep_a_master_admin()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.role <> 'master_admin' or not old.is_active or old.organization_id is null
     or (new.role = 'master_admin' and new.is_active
         and new.organization_id is not distinct from old.organization_id) then
    return new;
  end if;
  if not exists (select 1 from public.organizations o where o.id = old.organization_id) then
    return new;
  end if;
  if not exists (
    select 1 from public.user_profiles p
    where p.organization_id = old.organization_id and p.id <> old.id
      and p.role = 'master_admin' and p.is_active
  ) then
    raise exception 'An organization must keep a master admin who can sign in'
      using errcode = '23514';
  end if;
  return new;
end
$$;

create trigger user_profiles_keep_a_master_admin
  before update of role, is_active, organization_id on public.user_profiles
  for each row execute function private.keep_a_master_admin();

-- The checks before an admin is given a one-time link that signs a member in to set a new
-- password (the `member-reset-link` edge function calls this as the admin, then has the auth
-- service make the link, as GoTrue's admin generate_link does): for a member who cannot get
-- the e-mail. Admins make links for users; master admins for anyone else of the organisation,
-- so that a master admin can always be helped by another. Recorded in the history; at most 20
-- an hour per organisation. Answers the member's e-mail address.
create function public.authorize_password_reset_link(user_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to make reset links';
  end if;
  if authorize_password_reset_link.user_id = _me.id then
    raise exception 'Use "Forgot your password?" on the sign-in page for your own account';
  end if;
  select * into _target from public.user_profiles p
  where p.id = authorize_password_reset_link.user_id and p.organization_id = _me.organization_id;
  if not found then
    raise exception 'User not found';
  end if;
  if not _target.is_active then
    raise exception 'This member is deactivated';
  end if;
  if _me.role <> 'master_admin' and private.role_rank(_target.role) >= private.role_rank(_me.role) then
    raise exception 'Only a master admin can make a reset link for an admin';
  end if;
  if (select count(*) from public.activity_log a
      where a.organization_id = _me.organization_id and a.kind = 'member.reset_link_made'
        and a.occurred_at > now() - interval '1 hour') >= 20 then
    raise exception 'Too many reset links made in the last hour; please try again later';
  end if;
  perform private.log_activity(_me.organization_id, 'member.reset_link_made', null,
    private.display_name(_target), jsonb_build_object('member_id', _target.id));
  return _target.email;
end
$$;

revoke all on function public.update_organization(text, text) from public, anon, authenticated;
revoke all on function public.make_master_admin(uuid) from public, anon, authenticated;
revoke all on function private.keep_a_master_admin() from public, anon, authenticated;
revoke all on function public.authorize_password_reset_link(uuid) from public, anon, authenticated;
grant execute on function public.update_organization(text, text) to authenticated;
grant execute on function public.make_master_admin(uuid) to authenticated;
grant execute on function public.authorize_password_reset_link(uuid) to authenticated;
