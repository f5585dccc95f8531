-- The schema of Steward at migration 20261127001201, made by scripts/squash-migrations.ts
-- from supabase/schemas/ (each file follows, in order). Generated: do not edit. A change to
-- the schema is made in its supabase/schemas/ file and in a new migration after this one
-- (docs/data-model.md). A database that has any of the migrations below recorded already
-- holds what this makes; one that has this version recorded skips it.
--
-- squashed: 20261125000001_organizations_and_profiles
-- squashed: 20261125000002_documents
-- squashed: 20261125000003_invitations
-- squashed: 20261125000004_oauth
-- squashed: 20261125000005_organization_settings
-- squashed: 20261125000006_storage
-- squashed: 20261126000001_document_size_follows_file
-- squashed: 20261127000011_invitation_sign_up
-- squashed: 20261127000100_storage_quota
-- squashed: 20261127000300_profile_full_name
-- squashed: 20261127000400_jobs
-- squashed: 20261127000500_mail
-- squashed: 20261127000501_document_renewals
-- squashed: 20261127000502_reminders
-- squashed: 20261127000503_calendar_feeds
-- squashed: 20261127000600_document_texts
-- squashed: 20261127000601_search_documents
-- squashed: 20261127000602_document_duplicates
-- squashed: 20261127000603_bulk_document_actions
-- squashed: 20261127000700_search_documents_renewals
-- squashed: 20261127000701_text_extraction_start_in_batches
-- squashed: 20261127000702_jobs_due_by_kind
-- squashed: 20261127000703_search_documents_text_index
-- squashed: 20261127000800_document_trash
-- squashed: 20261127000810_activity_log
-- squashed: 20261127000820_document_file_versions
-- squashed: 20261127000900_password_reset
-- squashed: 20261127000901_two_factor
-- squashed: 20261127000902_two_factor_removal_history
-- squashed: 20261127001000_organization_export_import
-- squashed: 20261127001100_mail_worker
-- squashed: 20261127001101_job_leases_by_kind
-- squashed: 20261127001200_document_counts
-- squashed: 20261127001201_search_count_limit

-- ============================================================================================
-- supabase/schemas/01_organizations_and_profiles.sql
-- ============================================================================================

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
    constraint user_profiles_role_check check (role in ('user', 'admin', 'master_admin')),
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
-- user < admin < master_admin; unknown roles rank below everything.
create function private.role_rank(role text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case role when 'user' then 1 when 'admin' then 2 when 'master_admin' then 3 else 0 end
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

-- The one policy helper: the organisation in which the caller is an active member with at
-- least `minimum_role`, else null (anonymous, no profile, no organisation, deactivated, or a
-- lower role), and refused for an admin who must and did not prove a second factor. SECURITY
-- DEFINER so that it reads user_profiles without recursing into that table's own policies.
-- Policies call it as `(select private.caller_organization_id(...))`, which Postgres evaluates
-- once per statement (an InitPlan), not once per row.
create function private.caller_organization_id(minimum_role text default 'user')
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

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.organizations enable row level security;

alter table public.user_profiles enable row level security;

create policy "members read their organisation"
  on public.organizations for select to authenticated
  using (id = (select private.caller_organization_id()));

create policy "users read their own profile and members read their organisation's profiles"
  on public.user_profiles for select to authenticated
  using (
    id = (select auth.uid())
    or organization_id = (select private.caller_organization_id())
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

-- Master admins move other members of their organisation between user and admin.
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
  if new_role is null or new_role not in ('user', 'admin') then
    raise exception 'Role must be user or admin';
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
revoke all on function private.require_second_factor(uuid) from public, anon, authenticated;
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
-- supabase/schemas/02_jobs.sql
-- ============================================================================================

-- Background work: a durable queue of jobs and the schedules that add to it.
--
-- Work that must not run while a request waits (extracting a file's text, delivering e-mail,
-- daily reminders, purging the trash) is a row here. The embedded server's job runner
-- (server/jobs/) claims due jobs with `for update skip locked`, so two server processes on one
-- PostgreSQL never run a job twice at once; a claim is a lease, so a job whose runner died is
-- picked up again once the lease has passed. Organisations take turns: the organisation served
-- least recently goes first, so one organisation's ten thousand jobs never hold back another's
-- one. Nothing here is reachable through the API: only the server (and, on hosted Supabase,
-- functions run by pg_cron) reads and writes it.
--
-- The job queue's steps are SQL functions, so that the embedded server (server/jobs/,
-- server/mail/) and the `mail-worker` edge function of a hosted project
-- (supabase/functions/mail-worker/, 19_mail_worker.sql) take the same steps: the database
-- decides what is due, who may take it and what an outcome means.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table private.jobs (
  id bigint generated always as identity primary key,
  -- What to do, e.g. 'document.extract-text'; the runner has one handler per kind.
  kind text not null check (kind ~ '^[a-z][a-z0-9._-]{0,63}$'),
  payload jsonb not null default '{}'::jsonb,
  -- Whose work it is, for taking turns; null for the installation's own work.
  organization_id uuid references public.organizations (id) on delete cascade,
  -- A job that must exist at most once while it is pending (e.g. 'extract:<document>:<version>').
  dedupe_key text,
  run_after timestamptz not null default now(),
  attempts integer not null default 0,
  max_attempts integer not null default 5 check (max_attempts between 1 and 100),
  locked_until timestamptz,
  locked_by text,
  last_error text,
  finished_at timestamptz,
  failed_at timestamptz,
  created_at timestamptz not null default now()
);

-- When each organisation last had a job claimed (a number that only grows): the least
-- recently served goes first.
create sequence private.job_turn_seq;

create table private.job_turns (
  lane text primary key,
  last_turn bigint not null
);

-- Recurring work: each schedule runs when `next_run_at` has passed, once, then is moved on.
-- After downtime a schedule runs once (not once per missed period) and catches up by itself.
create table private.schedules (
  name text primary key check (name ~ '^[a-z][a-z0-9._-]{0,63}$'),
  next_run_at timestamptz not null,
  last_started_at timestamptz,
  last_finished_at timestamptz,
  last_error text
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index jobs_due_idx on private.jobs (run_after, id)
  where finished_at is null and failed_at is null;
create unique index jobs_pending_dedupe_key_idx on private.jobs (dedupe_key)
  where dedupe_key is not null and finished_at is null and failed_at is null;
create index jobs_organization_id_idx on private.jobs (organization_id);

-- The job runner claims the kinds that must not wait (reminders, e-mail) before bulk work (the
-- text of a whole library, queued at once by a first start): with 100,000 pending text jobs,
-- finding the one due e-mail must not read them all. Pending jobs by kind, in due order.
create index jobs_due_by_kind_idx on private.jobs (kind, run_after, id)
  where finished_at is null and failed_at is null;

-- ============================================================================================
-- Functions
-- ============================================================================================
-- Adds a job, or does nothing when a pending job with the same dedupe key exists. Callable from
-- triggers and SECURITY DEFINER functions of the other files; not granted to any API role.
create function private.enqueue_job(
  job_kind text,
  job_payload jsonb default '{}'::jsonb,
  job_organization_id uuid default null,
  job_dedupe_key text default null,
  job_run_after timestamptz default now(),
  job_max_attempts integer default 5
)
returns bigint
language sql
set search_path = ''
as $$
  insert into private.jobs (kind, payload, organization_id, dedupe_key, run_after, max_attempts)
  values (job_kind, job_payload, job_organization_id, job_dedupe_key, job_run_after, job_max_attempts)
  on conflict (dedupe_key) where dedupe_key is not null and finished_at is null and failed_at is null
  do nothing
  returning id;
$$;

-- Claims the next due job of `kinds` at `now_at`: from the lane (organisation) served least
-- recently, then the oldest. `skip locked` lets several runners claim at once without waiting
-- for each other or taking the same job. Each job is leased for its own kind's time limit,
-- `lease_seconds ->> kind` (the export's half hour need not hold up an e-mail whose runner
-- died).
create function private.claim_job(now_at timestamptz, lease_seconds jsonb, runner text, kinds text[])
returns table (id bigint, kind text, payload jsonb, organization_id uuid, attempts integer, max_attempts integer)
language sql
set search_path = ''
as $$
  with next as (
    select j.id, coalesce(j.organization_id::text, 'installation') as lane
    from private.jobs j
    left join private.job_turns t on t.lane = coalesce(j.organization_id::text, 'installation')
    where j.finished_at is null and j.failed_at is null and j.run_after <= claim_job.now_at
      and (j.locked_until is null or j.locked_until < claim_job.now_at)
      and j.kind = any (claim_job.kinds)
    order by t.last_turn nulls first, j.run_after, j.id
    limit 1
    for update of j skip locked
  ), turn as (
    insert into private.job_turns (lane, last_turn)
    select next.lane, nextval('private.job_turn_seq') from next
    on conflict (lane) do update set last_turn = excluded.last_turn
  )
  update private.jobs j
  set attempts = j.attempts + 1,
      locked_until = claim_job.now_at
        + make_interval(secs => (claim_job.lease_seconds ->> j.kind)::double precision),
      locked_by = claim_job.runner
  from next
  where j.id = next.id
  returning j.id, j.kind, j.payload, j.organization_id, j.attempts, j.max_attempts
$$;

-- The form with a single lease, which the mail-worker edge function calls: every kind alike.
create function private.claim_job(now_at timestamptz, lease_seconds double precision, runner text, kinds text[])
returns table (id bigint, kind text, payload jsonb, organization_id uuid, attempts integer, max_attempts integer)
language sql
set search_path = ''
as $$
  select * from private.claim_job(
    claim_job.now_at,
    (select jsonb_object_agg(k, claim_job.lease_seconds) from unnest(claim_job.kinds) k),
    claim_job.runner,
    claim_job.kinds)
$$;

-- Marks a job done; only the runner holding it may. True when it did.
create function private.finish_job(job_id bigint, runner text, now_at timestamptz)
returns boolean
language sql
set search_path = ''
as $$
  with done as (
    update private.jobs j set finished_at = finish_job.now_at, locked_until = null, last_error = null
    where j.id = finish_job.job_id and j.locked_by = finish_job.runner
    returning 1
  )
  select exists (select 1 from done)
$$;

-- Records a failed attempt: the job runs again after `retry_seconds`, or is given up when it has
-- had all its attempts (it stays, with its error, for whoever looks at it).
create function private.fail_job(
  job_id bigint, runner text, now_at timestamptz, error text, retry_seconds double precision
)
returns boolean
language sql
set search_path = ''
as $$
  with failed as (
    update private.jobs j
    set last_error = left(fail_job.error, 2000), locked_until = null,
        run_after = fail_job.now_at + make_interval(secs => fail_job.retry_seconds),
        failed_at = case when j.attempts >= j.max_attempts then fail_job.now_at end
    where j.id = fail_job.job_id and j.locked_by = fail_job.runner
    returning 1
  )
  select exists (select 1 from failed)
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
-- None: only the server, as the owner, reads and writes these tables.
alter table private.jobs enable row level security;
alter table private.job_turns enable row level security;
alter table private.schedules enable row level security;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on private.jobs, private.job_turns, private.schedules from public, anon, authenticated;
revoke all on sequence private.job_turn_seq from public, anon, authenticated;
revoke all on function private.enqueue_job(text, jsonb, uuid, text, timestamptz, integer)
  from public, anon, authenticated;
revoke all on function private.claim_job(timestamptz, jsonb, text, text[]) from public, anon, authenticated;
revoke all on function private.claim_job(timestamptz, double precision, text, text[])
  from public, anon, authenticated;
revoke all on function private.finish_job(bigint, text, timestamptz) from public, anon, authenticated;
revoke all on function private.fail_job(bigint, text, timestamptz, text, double precision)
  from public, anon, authenticated;

-- ============================================================================================
-- supabase/schemas/03_documents.sql
-- ============================================================================================

-- Documents: the organisation's files and their properties. The bytes live in the storage
-- bucket `documents` under `documents/{organization_id}/…` (04_storage.sql); `file_path` is
-- that object name. A document's recorded size and SHA-256 follow its stored file, copied in
-- the same transaction as the object's row, so a crash between the browser's two requests (the
-- file, then the row) can never leave new bytes with an old size.
--
-- Duplicates (issue 13): the SHA-256 of each document's file, so that the app can warn before
-- uploading a file the organisation already has. The embedded storage server computes it while
-- it writes the bytes and keeps it in the object's `metadata.sha256`. A hosted Supabase storage
-- server computes no SHA-256; there the app's own hash (computed with WebCrypto before the
-- upload, to ask `find_duplicate_documents`, and sent as the object's user metadata `sha256`)
-- is recorded instead. The storage server's own hash always wins where it has one. A client
-- that sends a wrong hash only misleads its own organisation's duplicate warnings.
--
-- Deleting a document moves it to the trash (15_trash.sql): the policies below hide trashed
-- documents from every list, counter and search, and the definer functions that read documents
-- leave them out (`deleted_at is null`).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.documents (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint documents_name_length check (char_length(name) between 1 and 500),
  -- The specification's fixed list of 14 categories.
  category text not null
    constraint documents_category_check check (category in (
      'HR', 'Accounting', 'Branding', 'Social Media', 'Communications',
      'Volunteer/People Management', 'Streaming: Video & Podcast', 'Reports', 'Governance',
      'Legal', 'Funding', 'Financial', 'Operations', 'Other'
    )),
  expiry_date date,
  size bigint not null default 0 constraint documents_size_check check (size >= 0),
  -- Set to Active at upload; nothing changes it afterwards (specification §4).
  status text not null default 'Active' constraint documents_status_check check (status in ('Active')),
  -- Exactly one file directly inside the organisation's folder; never `.` or `..`.
  file_path text not null
    constraint documents_file_path_in_folder check (
      file_path ~ ('^documents/' || organization_id::text || '/[^/]+$')
      and split_part(file_path, '/', 3) not in ('.', '..')
      and char_length(file_path) <= 1024
    ),
  tags text[] not null default '{}'
    constraint documents_tags_check check (
      cardinality(tags) <= 100 and array_position(tags, null) is null
    ),
  description text constraint documents_description_length check (char_length(description) <= 10000),
  uploaded_by uuid default auth.uid() references public.user_profiles (id) on delete set null,
  created_at timestamptz not null default now(),
  upload_date timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The member who looks after this document; defaults to the uploader (10_renewals.sql).
  -- Reminders go to them (a deactivated one, or one who left, falls back to the admins).
  responsible_id uuid references public.user_profiles (id) on delete set null,
  -- Someone is renewing it: its reminders pause until it is renewed or the marker is removed.
  renewal_in_progress boolean not null default false,
  renewal_note text
    constraint documents_renewal_note_length check (char_length(renewal_note) <= 1000),
  -- The SHA-256 of the file, to find duplicates (see find_duplicate_documents below).
  content_sha256 text
    constraint documents_content_sha256_format check (content_sha256 ~ '^[0-9a-f]{64}$'),
  -- When and by whom the document was moved to the trash (15_trash.sql); null while in use.
  deleted_at timestamptz,
  deleted_by uuid references public.user_profiles (id) on delete set null
);

-- Far past or far future dates are typing mistakes (year 20026) that no calendar, e-mail or
-- browser date handles alike. Added when documents existed, which were left as they are: the
-- constraint holds for new values and stays NOT VALID.
alter table public.documents
  add constraint documents_expiry_date_range
    check (expiry_date between date '1900-01-01' and date '9999-12-31') not valid;

-- The number of documents in use per organisation, kept by the database (issue 13). The
-- documents page shows "Showing 1–50 of N documents" on every load; `count(*)` of an
-- organisation's documents grows with the library (36 ms of a 48 ms first page at 100,000 on
-- PGlite, against 12 ms at 100). The unfiltered total comes from this table in constant time
-- (search_documents); searches and filters still count their matches.
--
-- Kept by statement-level triggers over the transition tables, so a bulk change (delete 1,000,
-- restore from the trash, an import) updates each organisation's row once. On PostgreSQL two
-- transactions changing the documents of one organisation wait for each other at its row until
-- the first commits; changes are short, and other organisations never share a row.
create table private.document_counts (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  -- Documents not in the trash.
  live bigint not null default 0 constraint document_counts_live_check check (live >= 0)
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- Listing newest first (and the policy's organisation filter), renewals by expiry, the category
-- filter, and tag containment (`tags=cs.{…}`). Name search is a substring ilike over one
-- organisation's rows, which the organisation index already narrows; pg_trgm would help more but
-- is not available on every backend this runs on (PGlite loads no extensions).
create index documents_organization_id_created_at_idx
  on public.documents (organization_id, created_at desc);
create index documents_organization_id_expiry_date_idx
  on public.documents (organization_id, expiry_date);
create index documents_organization_id_category_idx
  on public.documents (organization_id, category);
create index documents_tags_idx on public.documents using gin (tags);
create index documents_uploaded_by_idx on public.documents (uploaded_by);

-- The document of a stored file, for the triggers below and for the consistency check.
create index documents_file_path_idx on public.documents (file_path);
create index documents_responsible_id_idx on public.documents (responsible_id);

-- One index per sort order of the list, each led by the organisation (the policy's filter) and
-- ending with the id that breaks ties, so a page is read in index order and stops at its end.
create index documents_organization_id_name_idx
  on public.documents (organization_id, name, id);
create index documents_organization_id_upload_date_idx
  on public.documents (organization_id, upload_date desc, id desc);
create index documents_organization_id_size_idx
  on public.documents (organization_id, size, id);
create index documents_organization_id_content_sha256_idx
  on public.documents (organization_id, content_sha256);

-- The trash of one organisation, newest first, and the scheduler's search for expired ones.
create index documents_trash_idx
  on public.documents (organization_id, deleted_at desc) where deleted_at is not null;
create index documents_deleted_at_idx on public.documents (deleted_at) where deleted_at is not null;
create index documents_deleted_by_idx on public.documents (deleted_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger documents_touch_updated_at
  before update on public.documents
  for each row execute function private.touch_updated_at();

-- Security definer: the storage service may write the object as any member, and the copy must
-- not depend on the member's grants on documents. It touches only the document whose
-- `file_path` is this object's name, in the organisation that the name's folder names (the
-- storage policies already keep every member inside their own organisation's folder).
create function private.copy_file_size_to_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _size bigint := (new.metadata ->> 'size')::bigint;
begin
  update public.documents d
     set size = _size
   where d.file_path = new.name
     and d.organization_id::text = (storage.foldername(new.name))[2]
     and d.size is distinct from _size;
  return null;
end;
$$;

create trigger documents_size_follows_file
  after insert or update of metadata on storage.objects
  for each row
  when (new.bucket_id = 'documents' and new.metadata ? 'size'
        and (new.metadata ->> 'size') ~ '^[0-9]{1,18}$')
  execute function private.copy_file_size_to_document();

-- The hash an object's row records: the storage server's, else the uploader's; null if neither
-- is a SHA-256 in lower-case hex.
create function private.object_sha256(metadata jsonb, user_metadata jsonb)
returns text
language sql
immutable
set search_path = ''
as $$
  select h from (
    select coalesce(
      case when metadata ->> 'sha256' ~ '^[0-9a-f]{64}$' then metadata ->> 'sha256' end,
      case when user_metadata ->> 'sha256' ~ '^[0-9a-f]{64}$' then user_metadata ->> 'sha256' end
    ) as h
  ) x
$$;

-- A new document takes the hash of the file it points at (uploaded just before it).
create function private.document_sha256_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  select private.object_sha256(o.metadata, o.user_metadata) into new.content_sha256
    from storage.objects o
   where o.bucket_id = 'documents' and o.name = new.file_path;
  return new;
end
$$;

create trigger documents_sha256_on_insert
  before insert on public.documents
  for each row execute function private.document_sha256_on_insert();

-- A replaced file: its document's hash follows, in the same transaction (as its size does).
create function private.copy_file_sha256_to_document()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _sha256 text := private.object_sha256(new.metadata, new.user_metadata);
begin
  update public.documents d
     set content_sha256 = _sha256
   where d.file_path = new.name
     and d.organization_id::text = (storage.foldername(new.name))[2]
     and d.content_sha256 is distinct from _sha256;
  return null;
end
$$;

create trigger documents_sha256_follows_file
  after insert or update of metadata, user_metadata on storage.objects
  for each row
  when (new.bucket_id = 'documents')
  execute function private.copy_file_sha256_to_document();

-- The counter of documents in use (private.document_counts above).

-- Adds each organisation's change in documents in use: `changes` (organization_id, delta).
create function private.add_document_counts(changes jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.document_counts as c (organization_id, live)
  select (x ->> 'organization_id')::uuid, (x ->> 'delta')::bigint
    from jsonb_array_elements(changes) x
   where (x ->> 'delta')::bigint > 0
  on conflict (organization_id) do update set live = c.live + excluded.live;
  -- Decreases only touch existing rows: an organisation being deleted has lost its row already.
  update private.document_counts c
     set live = c.live + (x ->> 'delta')::bigint
    from jsonb_array_elements(changes) x
   where c.organization_id = (x ->> 'organization_id')::uuid
     and (x ->> 'delta')::bigint < 0;
end
$$;

create function private.count_inserted_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.add_document_counts(coalesce(jsonb_agg(x), '[]'))
     from (select n.organization_id, count(*) as delta
             from new_documents n where n.deleted_at is null
            group by n.organization_id) x;
  return null;
end
$$;

create function private.count_updated_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.add_document_counts(coalesce(jsonb_agg(x), '[]'))
     from (select c.organization_id, sum(c.delta) as delta
             from (select n.organization_id, 1 as delta from new_documents n
                    where n.deleted_at is null
                   union all
                   select o.organization_id, -1 from old_documents o
                    where o.deleted_at is null) c
            group by c.organization_id
           having sum(c.delta) <> 0) x;
  return null;
end
$$;

create function private.count_deleted_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.add_document_counts(coalesce(jsonb_agg(x), '[]'))
     from (select o.organization_id, -count(*) as delta
             from old_documents o where o.deleted_at is null
            group by o.organization_id) x;
  return null;
end
$$;

create trigger documents_count_inserted
  after insert on public.documents
  referencing new table as new_documents
  for each statement execute function private.count_inserted_documents();

create trigger documents_count_updated
  after update on public.documents
  referencing old table as old_documents new table as new_documents
  for each statement execute function private.count_updated_documents();

create trigger documents_count_deleted
  after delete on public.documents
  referencing old table as old_documents
  for each statement execute function private.count_deleted_documents();

-- The organisation's documents in use, as the counter holds them.
create function private.live_document_count(organization uuid)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select c.live from private.document_counts c
                    where c.organization_id = organization), 0)
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
-- The specification does not restrict document actions by role: every active member may read,
-- upload and edit their organisation's documents in use. Nobody deletes a row through the API:
-- delete_documents moves documents to the trash, and only purge_documents and empty_trash
-- (admins) delete for ever (15_trash.sql).
alter table public.documents enable row level security;

create policy "members read their organisation's documents"
  on public.documents for select to authenticated
  using (organization_id = (select private.caller_organization_id()) and deleted_at is null);

create policy "members add documents to their organisation"
  on public.documents for insert to authenticated
  with check (organization_id = (select private.caller_organization_id()));

create policy "members edit their organisation's documents"
  on public.documents for update to authenticated
  using (organization_id = (select private.caller_organization_id()) and deleted_at is null)
  with check (organization_id = (select private.caller_organization_id()) and deleted_at is null);

-- private.document_counts: none; only the triggers and functions above read and write it.
alter table private.document_counts enable row level security;

-- ============================================================================================
-- Functions
-- ============================================================================================
-- The dashboard counters, computed over the caller's organisation. Expiry dates are calendar
-- dates compared with today's date in UTC: overdue = before today; expiring soon = today up to
-- and including today + 30 days. Trashed documents are left out.
create type public.document_stats_result as (
  total integer,
  expiring_soon integer,
  overdue integer,
  categories integer
);

create function public.document_stats()
returns public.document_stats_result
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _today date := (now() at time zone 'UTC')::date;
  _result public.document_stats_result;
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  select
    count(*)::integer,
    (count(*) filter (where d.expiry_date between _today and _today + 30))::integer,
    (count(*) filter (where d.expiry_date < _today))::integer,
    (count(distinct d.category))::integer
  into _result
  from public.documents d
  where d.organization_id = _organization_id and d.deleted_at is null;
  return _result;
end
$$;

-- Documents of the caller's organisation whose category or any tag contains `term`,
-- case-insensitively (the "Related Documents" card). strpos, not ilike: `%` and `_` in the
-- term are plain characters.
create function public.count_documents_matching(term text)
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _needle text := lower(coalesce(term, ''));
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  return (
    select count(*)::integer
    from public.documents d
    where d.organization_id = _organization_id and d.deleted_at is null
      and (
        strpos(lower(d.category), _needle) > 0
        or exists (select 1 from unnest(d.tags) t (tag) where strpos(lower(t.tag), _needle) > 0)
      )
  );
end
$$;

-- The caller's organisation's documents whose file has the SHA-256 `sha256` (64 hex digits,
-- either case), newest first, at most 10. Security invoker: row-level security keeps it to the
-- caller's organisation.
create function public.find_duplicate_documents(sha256 text)
returns setof public.documents
language plpgsql
stable
security invoker
set search_path = ''
as $$
begin
  if sha256 is null or sha256 !~ '^[0-9a-fA-F]{64}$' then
    raise exception 'A SHA-256 is 64 hexadecimal digits';
  end if;
  return query
    select d.* from public.documents d
     where d.content_sha256 = lower(sha256)
     order by d.upload_date desc, d.id desc
     limit 10;
end
$$;

-- Actions on many selected documents at once (issue 13): set the category, add or remove tags,
-- set the expiry date (deleting is delete_documents, 15_trash.sql). Each is one function, one
-- statement, one transaction: every selected document changes, or (when one of them is not the
-- caller's to change) none does. Security invoker: the documents' row-level security and column
-- grants decide, exactly as for the same change made to one document with `update`. (So the
-- functions use no helper of the private schema, which the caller's role cannot reach.)
--
-- A selection is a list of document ids, each counted once: at least 1, at most 1000.
-- Tags are stored as the app stores them: trimmed, blanks dropped, each once
-- (case-insensitively), in the order given. Each returns how many documents it changed (all of
-- the selection).
create function public.set_documents_category(document_ids uuid[], new_category text)
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  update public.documents set category = new_category where id = any (_ids);
  get diagnostics _changed = row_count;
  if _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
exception
  when check_violation or not_null_violation then
    raise exception 'Choose one of the categories';
end
$$;

create function public.set_documents_expiry(document_ids uuid[], new_expiry_date date)
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  update public.documents set expiry_date = new_expiry_date where id = any (_ids);
  get diagnostics _changed = row_count;
  if _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
end
$$;

create function public.add_documents_tags(document_ids uuid[], tags_to_add text[])
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _tags text[] := array(
    select min(btrim(t)) from unnest(tags_to_add) with ordinality u (t, n)
     where btrim(t) <> '' group by lower(btrim(t)) order by min(n));
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  if cardinality(_tags) = 0 then
    raise exception 'Enter at least one tag';
  end if;
  update public.documents d
     set tags = d.tags || array(select t from unnest(_tags) t
                                where lower(t) <> all (array(select lower(x) from unnest(d.tags) x)))
   where d.id = any (_ids);
  get diagnostics _changed = row_count;
  if _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
exception
  when check_violation then
    raise exception 'A document can have at most 100 tags';
end
$$;

create function public.remove_documents_tags(document_ids uuid[], tags_to_remove text[])
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _tags text[] := array(select distinct lower(btrim(t)) from unnest(tags_to_remove) t
                         where btrim(t) <> '');
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  if cardinality(_tags) = 0 then
    raise exception 'Enter at least one tag';
  end if;
  update public.documents d
     set tags = array(select t from unnest(d.tags) with ordinality u (t, n)
                      where lower(t) <> all (_tags) order by n)
   where d.id = any (_ids);
  get diagnostics _changed = row_count;
  if _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Members write the document's properties; its organisation, file, uploader and timestamps are
-- fixed at upload (insert) or by the server. Documents are deleted through delete_documents (to
-- the trash) and for ever by the trash's functions only; deleted_at and deleted_by are written
-- by them alone.
revoke all on public.documents from anon, authenticated;
grant select on public.documents to authenticated;
grant insert (id, organization_id, name, category, expiry_date, size, status, file_path, tags,
  description, responsible_id, renewal_in_progress, renewal_note) on public.documents to authenticated;
grant update (name, category, expiry_date, size, tags, description, responsible_id,
  renewal_in_progress, renewal_note) on public.documents to authenticated;
revoke all on table private.document_counts from public, anon, authenticated;

revoke all on function private.copy_file_size_to_document() from public, anon, authenticated;
revoke all on function private.object_sha256(jsonb, jsonb) from public, anon, authenticated;
revoke all on function private.document_sha256_on_insert() from public, anon, authenticated;
revoke all on function private.copy_file_sha256_to_document() from public, anon, authenticated;
revoke all on function private.add_document_counts(jsonb) from public, anon, authenticated;
revoke all on function private.count_inserted_documents() from public, anon, authenticated;
revoke all on function private.count_updated_documents() from public, anon, authenticated;
revoke all on function private.count_deleted_documents() from public, anon, authenticated;
revoke all on function private.live_document_count(uuid) from public, anon, authenticated;

revoke all on function public.document_stats() from public, anon, authenticated;
revoke all on function public.count_documents_matching(text) from public, anon, authenticated;
revoke all on function public.find_duplicate_documents(text) from public, anon, authenticated;
revoke all on function public.set_documents_category(uuid[], text) from public, anon, authenticated;
revoke all on function public.set_documents_expiry(uuid[], date) from public, anon, authenticated;
revoke all on function public.add_documents_tags(uuid[], text[]) from public, anon, authenticated;
revoke all on function public.remove_documents_tags(uuid[], text[]) from public, anon, authenticated;
grant execute on function public.document_stats() to authenticated;
grant execute on function public.count_documents_matching(text) to authenticated;
grant execute on function public.find_duplicate_documents(text) to authenticated;
grant execute on function public.set_documents_category(uuid[], text) to authenticated;
grant execute on function public.set_documents_expiry(uuid[], date) to authenticated;
grant execute on function public.add_documents_tags(uuid[], text[]) to authenticated;
grant execute on function public.remove_documents_tags(uuid[], text[]) to authenticated;

-- ============================================================================================
-- supabase/schemas/04_storage.sql
-- ============================================================================================

-- Storage: the buckets and who may touch which objects. Object names are paths inside the
-- bucket, and the first folders name the organisation:
--   documents: documents/{organization_id}/{timestamp}-{random}.{ext}  (members read and write)
--   branding:  {organization_id}/logo.svg                               (members read, admins write)
-- Guessing another organisation's path gives nothing: its objects are invisible. (The buckets
-- `exports` and `imports` are in 18_transfer.sql.)
--
-- A storage quota per organisation: all of an organisation's objects together, in every bucket
-- whose object names start with its folder (documents: `documents/{organization_id}/…`,
-- branding: `{organization_id}/…`), may take at most `private.storage_settings`'s quota. The
-- check is a trigger on storage.objects, so it holds for every writer (the embedded server, a
-- hosted Supabase project's storage server, SQL); a lock per organisation makes concurrent
-- uploads of one organisation take turns, so together they cannot pass the quota. Admins read
-- their organisation's usage with `organization_storage_usage()`.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Both buckets private: files are reached with the caller's token or a signed URL, never
-- publicly.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('documents', 'documents', false, 52428800, null),         -- 50 MB per object
  ('branding', 'branding', false, 1048575, '{image/svg+xml}') -- SVG only, under 1 MB
on conflict (id) do nothing;

-- One row. The embedded server writes steward.toml's `[storage] quota_per_organization` here
-- at start-up; on a hosted project, update it with SQL. The default is steward.toml's (10 GiB).
create table private.storage_settings (
  id boolean primary key default true constraint storage_settings_one_row check (id),
  quota_per_organization bigint not null
    constraint storage_settings_quota_not_negative check (quota_per_organization >= 0),
  updated_at timestamptz not null default now()
);
insert into private.storage_settings (quota_per_organization) values (10737418240);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- storage.objects already has (bucket_id, name) unique and a prefix index on name. The usage
-- sum reads one organisation's folder through storage.objects' name_prefix_search index
-- (text_pattern_ops), with the byte-wise range operators below.

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The organisation whose folder holds an object, or null for names outside every organisation
-- folder (those count towards no quota).
create function private.object_organization_id(bucket_id text, name text)
returns uuid
language sql
immutable
set search_path = ''
as $$
  select case when folder ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
              then folder::uuid end
  from (
    select case
      when bucket_id = 'documents' and (storage.foldername(name))[1] = 'documents'
        then (storage.foldername(name))[2]
      when bucket_id = 'branding' then (storage.foldername(name))[1]
    end as folder
  ) f
$$;

-- The bytes an object takes: its stored size, or while it is being checked before its bytes
-- arrive, the length its request declared (as the storage server's trial write records it).
create function private.object_bytes(metadata jsonb)
returns bigint
language sql
immutable
set search_path = ''
as $$
  select case
    when metadata ->> 'size' ~ '^[0-9]{1,18}$' then (metadata ->> 'size')::bigint
    when metadata ->> 'contentLength' ~ '^[0-9]{1,18}$' then (metadata ->> 'contentLength')::bigint
    else 0
  end
$$;

-- Bytes of all of an organisation's objects but the one named (bucket_id, name), if given.
create function private.organization_storage_bytes(
  organization_id uuid,
  except_bucket_id text default null,
  except_name text default null
)
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(sum(private.object_bytes(o.metadata)), 0)::bigint
  from storage.objects o
  where ((o.bucket_id = 'documents'
          and o.name operator(pg_catalog.~>=~) ('documents/' || organization_id || '/')
          and o.name operator(pg_catalog.~<~) ('documents/' || organization_id || '0'))
      or (o.bucket_id = 'branding'
          and o.name operator(pg_catalog.~>=~) (organization_id || '/')
          and o.name operator(pg_catalog.~<~) (organization_id || '0')))
    and (except_name is null or o.bucket_id <> except_bucket_id or o.name <> except_name)
$$;

-- Refuses a write that would take an organisation past its quota. A write that does not grow
-- what the organisation holds (a smaller replacement, a rename inside it) always passes, so an
-- organisation over a lowered quota can still tidy up. Security definer: the usage counts
-- objects the writer may not see, and the settings are private.
create function private.enforce_storage_quota()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.object_organization_id(new.bucket_id, new.name);
  _bytes bigint := private.object_bytes(new.metadata);
  _replaced bigint := 0;
  _quota bigint;
  _others bigint;
begin
  if _organization_id is null then
    return new;
  end if;
  -- One writer per organisation at a time, until commit: the next one sums after this one.
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('storage quota ' || _organization_id, 7305));
  -- What this write replaces: the row itself on update, the row of the same name on an upsert.
  if tg_op = 'UPDATE'
     and private.object_organization_id(old.bucket_id, old.name) = _organization_id then
    _replaced := private.object_bytes(old.metadata);
  elsif tg_op = 'INSERT' then
    select private.object_bytes(o.metadata) into _replaced
    from storage.objects o where o.bucket_id = new.bucket_id and o.name = new.name;
    _replaced := coalesce(_replaced, 0);
  end if;
  if _bytes <= _replaced then
    return new;
  end if;
  select s.quota_per_organization into _quota from private.storage_settings s;
  _others := private.organization_storage_bytes(
    _organization_id,
    case when tg_op = 'UPDATE' then old.bucket_id else new.bucket_id end,
    case when tg_op = 'UPDATE' then old.name else new.name end);
  if _others + _bytes > coalesce(_quota, 0) then
    -- 42501 with a message of our own: the storage server passes the message through
    -- (AccessDenied), where any other code would reach the client as "database error".
    raise exception using
      errcode = '42501',
      message = format('Your organization''s storage is full (quota: %s)',
                       pg_catalog.pg_size_pretty(coalesce(_quota, 0)));
  end if;
  return new;
end
$$;

create trigger objects_respect_storage_quota
  before insert or update of bucket_id, name, metadata on storage.objects
  for each row
  execute function private.enforce_storage_quota();

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Uploading with upsert and updating a file's content need select and update as well as insert.
create policy "members read their organisation's document files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members upload document files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members replace their organisation's document files"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  )
  with check (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members delete their organisation's document files"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id()::text)
  );

create policy "members read their organisation's logo"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'branding'
    and (storage.foldername(name))[1] = (select private.caller_organization_id()::text)
  );

create policy "admins upload their organisation's logo"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  );

create policy "admins replace their organisation's logo"
  on storage.objects for update to authenticated
  using (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  )
  with check (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  );

create policy "admins remove their organisation's logo"
  on storage.objects for delete to authenticated
  using (
    bucket_id = 'branding'
    and name = (select private.caller_organization_id('admin')::text) || '/logo.svg'
  );

-- private.storage_settings: no policies; only the server's own connection and the functions
-- above read or write it.
alter table private.storage_settings enable row level security;

-- ============================================================================================
-- Functions
-- ============================================================================================
create type public.storage_usage_result as (
  used_bytes bigint,
  quota_bytes bigint
);

-- The caller's organisation's storage against its quota: admins and master admins only.
create function public.organization_storage_usage()
returns public.storage_usage_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _result public.storage_usage_result;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to view storage usage';
  end if;
  select private.organization_storage_bytes(_me.organization_id), s.quota_per_organization
  into _result
  from private.storage_settings s;
  return _result;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
-- The platform's grants on storage.objects stand; the policies above decide.
revoke all on private.storage_settings from public, anon, authenticated;
revoke all on function private.object_organization_id(text, text) from public, anon, authenticated;
revoke all on function private.object_bytes(jsonb) from public, anon, authenticated;
revoke all on function private.organization_storage_bytes(uuid, text, text)
  from public, anon, authenticated;
revoke all on function private.enforce_storage_quota() from public, anon, authenticated;
revoke all on function public.organization_storage_usage() from public, anon, authenticated;
grant execute on function public.organization_storage_usage() to authenticated;

-- ============================================================================================
-- supabase/schemas/05_mail.sql
-- ============================================================================================

-- E-mail: every message the product sends is recorded here first, then delivered by a
-- background job (server/mail/). With SMTP configured the job sends it and records the outcome;
-- without SMTP (the default of a first start) the message stays in the organisation's Outbox,
-- which its admins read in the app, and nothing claims that it was delivered.
--
-- Messages are written only by the SECURITY DEFINER functions below (and by the reminder run,
-- 11_reminders.sql), never directly through the API: a member can send the organisation's
-- documents, an admin an invitation, and that is all.

-- One row: how this installation delivers mail. The embedded server writes it at start-up from
-- its configuration (`SMTP_URL` or config.toml [auth.email.smtp]); on a hosted project, set it
-- with SQL when the mail function has SMTP.
--
-- The delivery's outcomes are SQL functions too (save_mail_parts, record_mail_outcome), so that
-- the embedded server and the `mail-worker` edge function of a hosted project
-- (19_mail_worker.sql) record them alike.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- One row: how this installation delivers mail. The embedded server writes it at start-up from
-- its configuration (`SMTP_URL` or config.toml [auth.email.smtp]); on a hosted project, set it
-- with SQL when the mail function has SMTP.
create table private.mail_settings (
  id boolean primary key default true constraint mail_settings_one_row check (id),
  delivery text not null default 'outbox'
    constraint mail_settings_delivery_check check (delivery in ('smtp', 'outbox')),
  updated_at timestamptz not null default now()
);
insert into private.mail_settings (delivery) values ('outbox');

create table public.outbox_messages (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- What the message is: the documents a member sent, an invitation, a reminder digest.
  kind text not null
    constraint outbox_messages_kind_check check (kind in ('documents', 'invitation', 'reminders')),
  -- Who sent it; null for the reminder run and for members since removed.
  created_by uuid references public.user_profiles (id) on delete set null,
  recipients text[] not null
    constraint outbox_messages_recipients_check check (
      cardinality(recipients) between 1 and 50 and array_position(recipients, null) is null
    ),
  subject text not null
    constraint outbox_messages_subject_length check (char_length(subject) between 1 and 300),
  -- What the message says, from which the delivery job writes its text and HTML parts.
  content jsonb not null default '{}'::jsonb,
  -- The parts as delivered (or as they would be): written by the delivery job, then kept.
  text_body text,
  html_body text,
  -- [{label, url, expires_at}]: signed links to documents, when they were sent as links.
  links jsonb not null default '[]'::jsonb,
  -- [{document_id, name, file_path, size}]: the documents attached (or linked).
  attachments jsonb not null default '[]'::jsonb,
  -- queued: waiting for (another) delivery attempt; sent: accepted by the SMTP server;
  -- failed: every attempt failed (see last_error); outbox: kept here, no SMTP configured.
  status text not null default 'queued'
    constraint outbox_messages_status_check check (status in ('queued', 'sent', 'failed', 'outbox')),
  attempts integer not null default 0,
  last_error text,
  -- A message that must exist once (e.g. one reminder digest per recipient and day).
  dedupe_key text unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  sent_at timestamptz
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- The Outbox page: the organisation's messages, newest first.
create index outbox_messages_organization_id_created_at_idx
  on public.outbox_messages (organization_id, created_at desc);
create index outbox_messages_created_by_idx on public.outbox_messages (created_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger outbox_messages_touch_updated_at
  before update on public.outbox_messages
  for each row execute function private.touch_updated_at();

-- An address as a browser's `<input type="email">` accepts it (the WHATWG rule): no display
-- names, quotes, commas or spaces, so that one address can never become two in a header.
create function private.is_email_address(address text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select coalesce(
    char_length(address) <= 254
    and address ~ ('^[A-Za-z0-9.!#$%&''*+/=?^_`{|}~-]{1,64}@'
                   '[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?'
                   '(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$'),
    false)
$$;

-- Records a message and adds the job that delivers it, in the caller's transaction: both are
-- there, or neither. With SMTP off the message is recorded as `outbox` at once, so that the
-- caller can say so. Returns the message id, or null when a message with `dedupe_key` exists.
create function private.queue_mail(
  organization_id uuid,
  kind text,
  recipients text[],
  subject text,
  content jsonb,
  attachments jsonb default '[]'::jsonb,
  created_by uuid default null,
  dedupe_key text default null
)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  _id uuid;
begin
  insert into public.outbox_messages as m
    (organization_id, kind, created_by, recipients, subject, content, attachments, status, dedupe_key)
  select queue_mail.organization_id, queue_mail.kind, queue_mail.created_by,
         queue_mail.recipients, queue_mail.subject, queue_mail.content, queue_mail.attachments,
         case s.delivery when 'smtp' then 'queued' else 'outbox' end, queue_mail.dedupe_key
  from private.mail_settings s
  on conflict on constraint outbox_messages_dedupe_key_key do nothing
  returning m.id into _id;
  if _id is null then
    return null;
  end if;
  -- Eight attempts over about two hours (30 s doubling), then the message is marked failed.
  perform private.enqueue_job('mail.deliver', jsonb_build_object('message_id', _id),
                              queue_mail.organization_id, 'mail:' || _id, now(), 8);
  return _id;
end
$$;

-- The sender's name for a message's text: full name, else e-mail.
create function private.display_name(profile public.user_profiles)
returns text
language sql
stable
set search_path = ''
as $$
  select coalesce(nullif(private.trim_whitespace(profile.full_name), ''), profile.email)
$$;

-- Keeps the parts written for a message, so that every attempt sends the same text. Parts
-- already kept are not replaced.
create function private.save_mail_parts(message_id uuid, text_body text, html_body text, links jsonb)
returns void
language sql
set search_path = ''
as $$
  update public.outbox_messages m
  set text_body = save_mail_parts.text_body, html_body = save_mail_parts.html_body,
      links = coalesce(save_mail_parts.links, '[]'::jsonb)
  where m.id = save_mail_parts.message_id and m.text_body is null
$$;

-- Records the outcome of one delivery attempt of a message: `sent` (accepted by the SMTP
-- server), `queued` (failed, tried again), `failed` (given up, with `error`), or `outbox` (no
-- SMTP: kept in the Outbox). Once an invitation is sent, its link is the invited person's
-- alone: the token leaves the stored message (tokens are otherwise kept only as hashes).
create function private.record_mail_outcome(
  message_id uuid, outcome text, error text, now_at timestamptz
)
returns void
language plpgsql
set search_path = ''
as $$
declare
  _token text;
begin
  if record_mail_outcome.outcome = 'sent' then
    update public.outbox_messages m
    set status = 'sent', sent_at = record_mail_outcome.now_at, attempts = m.attempts + 1,
        last_error = null
    where m.id = record_mail_outcome.message_id
    returning case when m.kind = 'invitation' then m.content ->> 'token' end into _token;
    if nullif(_token, '') is not null then
      update public.outbox_messages m
      set text_body = replace(m.text_body, _token, '…'), html_body = replace(m.html_body, _token, '…'),
          content = m.content - 'token'
      where m.id = record_mail_outcome.message_id;
    end if;
  elsif record_mail_outcome.outcome = 'outbox' then
    update public.outbox_messages m set status = 'outbox' where m.id = record_mail_outcome.message_id;
  elsif record_mail_outcome.outcome in ('queued', 'failed') then
    update public.outbox_messages m
    set status = record_mail_outcome.outcome, attempts = m.attempts + 1,
        last_error = left(coalesce(record_mail_outcome.error, 'delivery failed'), 2000)
    where m.id = record_mail_outcome.message_id;
  else
    raise exception 'Unknown mail outcome: %', left(record_mail_outcome.outcome, 20);
  end if;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table private.mail_settings enable row level security;
alter table public.outbox_messages enable row level security;

create policy "admins read their organisation's outbox"
  on public.outbox_messages for select to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- No insert, update or delete policies: messages are written by the functions below and the
-- server's delivery job only.

-- ============================================================================================
-- Functions
-- ============================================================================================
create type public.mail_result as (
  id uuid,
  -- `queued` (SMTP will deliver it) or `outbox` (kept in the Outbox: SMTP is off).
  status text
);

-- A member e-mails documents of their organisation, as attachments or as signed links (valid
-- for the installation's longest signed link, and only while the sender stays an active
-- member). Replaces the specification's simulated sending. Trashed documents are not found.
create function public.send_documents_email(
  recipients text[],
  subject text,
  message text,
  document_ids uuid[],
  as_links boolean
)
returns public.mail_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _organization public.organizations;
  _recipients text[];
  _bad text;
  _subject text := private.trim_whitespace(coalesce(send_documents_email.subject, ''));
  _message text := nullif(private.trim_whitespace(send_documents_email.message), '');
  _ids uuid[];
  _documents jsonb;
  _found integer;
  _id uuid;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _organization from public.organizations o where o.id = _me.organization_id;

  select coalesce(array_agg(distinct a), '{}') into _recipients
  from (
    select private.trim_whitespace(r) as a from unnest(send_documents_email.recipients) r
  ) t
  where a is not null and a <> '';
  if cardinality(_recipients) = 0 then
    raise exception 'Please enter at least one recipient email address';
  end if;
  select a into _bad from unnest(_recipients) a where not private.is_email_address(a) limit 1;
  if _bad is not null then
    raise exception 'Invalid email address: %', left(_bad, 254);
  end if;
  if cardinality(_recipients) > 50 then
    raise exception 'An e-mail can have at most 50 recipients';
  end if;
  if _subject = '' then
    raise exception 'Subject is required';
  end if;
  if char_length(_subject) > 300 then
    raise exception 'Subject must be at most 300 characters';
  end if;
  if char_length(_message) > 5000 then
    raise exception 'Message must be at most 5000 characters';
  end if;

  select coalesce(array_agg(distinct i), '{}') into _ids
  from unnest(send_documents_email.document_ids) i where i is not null;
  if cardinality(_ids) = 0 then
    raise exception 'Select at least one document';
  end if;
  if cardinality(_ids) > 100 then
    raise exception 'An e-mail can carry at most 100 documents';
  end if;
  select count(*)::integer,
         coalesce(jsonb_agg(jsonb_build_object('document_id', d.id, 'name', d.name,
                                               'file_path', d.file_path, 'size', d.size)
                            order by d.name), '[]'::jsonb)
  into _found, _documents
  from public.documents d
  where d.id = any (_ids) and d.organization_id = _me.organization_id
    and d.deleted_at is null;
  if _found <> cardinality(_ids) then
    raise exception 'Document not found';
  end if;

  -- Members send documents to people outside the organisation: a bound on how many, so that
  -- a stolen session cannot turn the installation's SMTP account into a mailing list.
  if (select count(*) from public.outbox_messages m
      where m.organization_id = _me.organization_id and m.kind = 'documents'
        and m.created_at > now() - interval '1 hour') >= 100 then
    raise exception 'Too many e-mails sent in the last hour; please try again later';
  end if;

  _id := private.queue_mail(
    _me.organization_id, 'documents', _recipients, _subject,
    jsonb_build_object(
      'sender_name', private.display_name(_me),
      'sender_email', _me.email,
      'organization_name', _organization.name,
      'message', _message,
      'as_links', coalesce(send_documents_email.as_links, false)),
    _documents, _me.id);
  return (_id, (select m.status from public.outbox_messages m where m.id = _id))::public.mail_result;
end
$$;

-- Admins send a message again that failed, or (once SMTP is configured) one kept in the Outbox.
create function public.retry_outbox_message(message_id uuid)
returns public.mail_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _message public.outbox_messages;
  _delivery text := (select s.delivery from private.mail_settings s);
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to manage the outbox';
  end if;
  select * into _message from public.outbox_messages m
  where m.id = retry_outbox_message.message_id and m.organization_id = _me.organization_id
  for update;
  if not found then
    raise exception 'Message not found';
  end if;
  if _message.status not in ('failed', 'outbox') then
    raise exception 'Only a failed message, or one kept in the Outbox, can be sent again';
  end if;
  if _delivery <> 'smtp' then
    raise exception 'E-mail delivery is not configured: messages stay in the Outbox';
  end if;
  update public.outbox_messages m
  set status = 'queued', attempts = 0, last_error = null
  where m.id = _message.id;
  perform private.enqueue_job('mail.deliver', jsonb_build_object('message_id', _message.id),
                              _message.organization_id, 'mail:' || _message.id, now(), 8);
  return (_message.id, 'queued')::public.mail_result;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on private.mail_settings from public, anon, authenticated;
revoke all on public.outbox_messages from anon, authenticated;
grant select on public.outbox_messages to authenticated;

revoke all on function private.is_email_address(text) from public, anon, authenticated;
revoke all on function private.queue_mail(uuid, text, text[], text, jsonb, jsonb, uuid, text)
  from public, anon, authenticated;
revoke all on function private.display_name(public.user_profiles) from public, anon, authenticated;
revoke all on function private.save_mail_parts(uuid, text, text, jsonb) from public, anon, authenticated;
revoke all on function private.record_mail_outcome(uuid, text, text, timestamptz)
  from public, anon, authenticated;
revoke all on function public.send_documents_email(text[], text, text, uuid[], boolean)
  from public, anon, authenticated;
revoke all on function public.retry_outbox_message(uuid) from public, anon, authenticated;
grant execute on function public.send_documents_email(text[], text, text, uuid[], boolean) to authenticated;
grant execute on function public.retry_outbox_message(uuid) to authenticated;

-- ============================================================================================
-- supabase/schemas/06_invitations.sql
-- ============================================================================================

-- Invitations: admins invite people by e-mail; the invited person opens
-- /invite/{token}, signs up with that e-mail and accepts.
--
-- The token is 244 random bits (two version-4 UUIDs), handed to the inviter once by invite_user
-- and stored only as its SHA-256 in private.invitation_tokens, which no API role can reach.
-- A leaked invitation listing therefore cannot be replayed.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.user_invitations (
  id uuid primary key default gen_random_uuid(),
  -- Stored lower-cased (and without whitespace), so lookups and the duplicate check are exact.
  email text not null
    constraint user_invitations_email_check check (
      email = lower(email)
      and char_length(email) <= 254
      and email ~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$'
    ),
  role text not null default 'user'
    constraint user_invitations_role_check check (role in ('user', 'admin')),
  full_name text
    constraint user_invitations_full_name_length check (char_length(full_name) <= 200),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  invited_by uuid references public.user_profiles (id) on delete set null,
  expires_at timestamptz not null,
  accepted_at timestamptz,
  created_at timestamptz not null default now()
);

-- The secret half of an invitation, kept out of the exposed schema.
create table private.invitation_tokens (
  invitation_id uuid primary key references public.user_invitations (id) on delete cascade,
  token_hash text not null unique
    constraint invitation_tokens_token_hash_check check (token_hash ~ '^[0-9a-f]{64}$')
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- One pending invitation per e-mail and organisation (inviting again replaces it).
create unique index user_invitations_one_pending_per_email_idx
  on public.user_invitations (organization_id, email)
  where accepted_at is null;

-- The admin listing: organisation filter, newest first.
create index user_invitations_organization_id_created_at_idx
  on public.user_invitations (organization_id, created_at desc);
create index user_invitations_invited_by_idx on public.user_invitations (invited_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create function private.hash_invitation_token(token text)
returns text
language sql
immutable
set search_path = ''
as $$
  select encode(sha256(convert_to(coalesce(token, ''), 'UTF8')), 'hex')
$$;

create type public.invite_user_result as (id uuid, email text, token text);

-- Admins invite a person to their organisation as user or admin (invite_user and
-- invite_user_by_email below). Inviting an e-mail that already has a pending invitation replaces
-- it: new token, role, name and a fresh 7-day expiry, and the old link stops working. Since a
-- link is shown only once, this is how an admin re-sends one.
create function private.create_invitation(email text, role text, full_name text)
returns public.invite_user_result
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  _me public.user_profiles := private.caller_profile();
  _email text := lower(private.trim_whitespace(coalesce(create_invitation.email, '')));
  _role text := coalesce(nullif(private.trim_whitespace(create_invitation.role), ''), 'user');
  _full_name text := nullif(private.trim_whitespace(create_invitation.full_name), '');
  -- Two version-4 UUIDs: 2 × 122 random bits from the server's cryptographic generator.
  _token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
  _invitation_id uuid;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to invite users';
  end if;
  if char_length(_email) > 254 or _email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
    raise exception 'Invalid email address';
  end if;
  if _role not in ('user', 'admin') then
    raise exception 'Role must be user or admin';
  end if;
  if char_length(_full_name) > 200 then
    raise exception 'Full name must be at most 200 characters';
  end if;
  if exists (
    select 1 from public.user_profiles p
    where lower(p.email) = _email and p.organization_id = _me.organization_id
  ) then
    raise exception 'User is already a member of this organization';
  end if;

  insert into public.user_invitations as i
    (email, role, full_name, organization_id, invited_by, expires_at)
  values (_email, _role, _full_name, _me.organization_id, _me.id, now() + interval '7 days')
  on conflict (organization_id, email) where accepted_at is null do update
    set role = excluded.role,
        full_name = excluded.full_name,
        invited_by = excluded.invited_by,
        expires_at = excluded.expires_at,
        created_at = now()
  returning i.id into _invitation_id;

  insert into private.invitation_tokens (invitation_id, token_hash)
  values (_invitation_id, private.hash_invitation_token(_token))
  on conflict (invitation_id) do update set token_hash = excluded.token_hash;

  return (_invitation_id, _email, _token)::public.invite_user_result;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.user_invitations enable row level security;
alter table private.invitation_tokens enable row level security;

create policy "admins read their organisation's invitations"
  on public.user_invitations for select to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- No insert, update or delete policies: invitations change only through the functions below.
-- private.invitation_tokens has no policies at all.

-- ============================================================================================
-- Functions
-- ============================================================================================
create function public.invite_user(email text, role text, full_name text)
returns public.invite_user_result
language sql
security definer
set search_path = ''
as $$
  select private.create_invitation(email, role, full_name)
$$;

create type public.invite_by_email_result as (
  id uuid,
  email text,
  token text,
  mail_id uuid,
  mail_status text
);

-- invite_user, and the invitation e-mailed to the invited address in the same transaction: the
-- token exists in plain text only in this call, so the message carrying the link must be
-- recorded here. The delivery job removes the token from the stored message once it is sent.
create function public.invite_user_by_email(email text, role text, full_name text)
returns public.invite_by_email_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _invitation public.invite_user_result :=
    private.create_invitation(invite_user_by_email.email, invite_user_by_email.role,
                              invite_user_by_email.full_name);
  _me public.user_profiles := private.caller_profile();
  _row public.user_invitations;
  _organization_name text;
  _mail_id uuid;
begin
  select * into _row from public.user_invitations i where i.id = _invitation.id;
  select o.name into _organization_name from public.organizations o where o.id = _row.organization_id;
  _mail_id := private.queue_mail(
    _row.organization_id, 'invitation', array[_row.email],
    format('You are invited to join %s', _organization_name),
    jsonb_build_object(
      'token', _invitation.token,
      'invitee_name', _row.full_name,
      'organization_name', _organization_name,
      'inviter_name', private.display_name(_me),
      'inviter_email', _me.email,
      'role', _row.role,
      'expires_at', _row.expires_at),
    '[]'::jsonb, _me.id);
  return (_invitation.id, _invitation.email, _invitation.token, _mail_id,
          (select m.status from public.outbox_messages m where m.id = _mail_id))
    ::public.invite_by_email_result;
end
$$;

-- Admins withdraw a pending invitation of their organisation.
create function public.cancel_invitation(invitation_id uuid)
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
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to cancel invitations';
  end if;
  delete from public.user_invitations i
  where i.id = cancel_invitation.invitation_id
    and i.organization_id = _me.organization_id
    and i.accepted_at is null;
  if not found then
    raise exception 'Invitation not found';
  end if;
end
$$;

-- What the invitation page shows. Callable without signing in: the token is the credential.
create type public.invitation_details as (
  email text,
  role text,
  full_name text,
  organization_name text,
  invited_by_name text,
  invited_by_email text,
  expires_at timestamptz
);

create function public.get_invitation(token text)
returns public.invitation_details
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _details public.invitation_details;
begin
  select i.email, i.role, i.full_name, o.name, inviter.full_name, inviter.email, i.expires_at
  into _details
  from private.invitation_tokens t
  join public.user_invitations i on i.id = t.invitation_id
  join public.organizations o on o.id = i.organization_id
  left join public.user_profiles inviter on inviter.id = i.invited_by
  where t.token_hash = private.hash_invitation_token(get_invitation.token)
    and i.accepted_at is null
    and i.expires_at > now();
  if not found then
    raise exception 'Invalid or expired invitation';
  end if;
  return _details;
end
$$;

-- The signed-in user whose e-mail the invitation was sent to joins the organisation with the
-- invited role and name. The invitation row is locked and re-checked, so under concurrent calls
-- exactly one succeeds and the others see an invalid invitation.
create function public.accept_invitation(token text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _invitation public.user_invitations;
  _auth_email text;
begin
  select i.* into _invitation
  from private.invitation_tokens t
  join public.user_invitations i on i.id = t.invitation_id
  where t.token_hash = private.hash_invitation_token(accept_invitation.token)
    and i.accepted_at is null
    and i.expires_at > now()
  for update of i;
  if not found then
    raise exception 'Invalid or expired invitation';
  end if;

  -- The address the auth service holds, not a claim that may be stale.
  select lower(private.trim_whitespace(u.email)) into _auth_email from auth.users u where u.id = _me.id;
  if _auth_email is distinct from _invitation.email then
    raise exception 'This invitation was sent to a different email address';
  end if;

  select * into _me from public.user_profiles p where p.id = _me.id for update;
  if _me.organization_id is not null then
    raise exception 'User already belongs to an organization';
  end if;

  update public.user_invitations i set accepted_at = now() where i.id = _invitation.id;
  update public.user_profiles p
  set organization_id = _invitation.organization_id,
      role = _invitation.role,
      full_name = coalesce(_invitation.full_name, p.full_name),
      invited_by = _invitation.invited_by,
      invited_at = _invitation.created_at,
      is_active = true
  where p.id = _me.id;
end
$$;

-- Invitation-only sign-up: when an installation closes sign-up (`[auth] enable_signup = false`),
-- the embedded auth service still creates the account of someone holding a valid invitation,
-- for the e-mail address the invitation was sent to. It asks this function, as the database
-- owner; no API role may call it, and it reads nothing an API role could not already learn with
-- the token from get_invitation.
--
-- Hosted Supabase closes sign-up in GoTrue itself, which knows nothing of invitations; there,
-- keep sign-up open or create invited accounts with the admin API.
create function private.invitation_allows_sign_up(token text, email text)
returns boolean
language sql
stable
set search_path = ''
as $$
  select exists (
    select 1
    from private.invitation_tokens t
    join public.user_invitations i on i.id = t.invitation_id
    where t.token_hash = private.hash_invitation_token(invitation_allows_sign_up.token)
      and i.accepted_at is null
      and i.expires_at > now()
      and i.email = lower(invitation_allows_sign_up.email)
  )
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.user_invitations from anon, authenticated;
grant select on public.user_invitations to authenticated;
revoke all on private.invitation_tokens from public, anon, authenticated, service_role;

revoke all on function private.hash_invitation_token(text) from public, anon, authenticated;
revoke all on function private.create_invitation(text, text, text) from public, anon, authenticated;
revoke all on function private.invitation_allows_sign_up(text, text)
  from public, anon, authenticated;
revoke all on function public.invite_user(text, text, text) from public, anon, authenticated;
revoke all on function public.invite_user_by_email(text, text, text) from public, anon, authenticated;
revoke all on function public.cancel_invitation(uuid) from public, anon, authenticated;
revoke all on function public.get_invitation(text) from public, anon, authenticated;
revoke all on function public.accept_invitation(text) from public, anon, authenticated;
grant execute on function public.invite_user(text, text, text) to authenticated;
grant execute on function public.invite_user_by_email(text, text, text) to authenticated;
grant execute on function public.cancel_invitation(uuid) to authenticated;
grant execute on function public.get_invitation(text) to anon, authenticated;
grant execute on function public.accept_invitation(text) to authenticated;

-- ============================================================================================
-- supabase/schemas/07_oauth.sql
-- ============================================================================================

-- Connections to outside services (OAuth authorisation-code flow).
--
-- The browser never sees a client secret or a provider token. It reads which providers are
-- configured through the view oauth_provider_settings and its own connections from
-- oauth_connections; the edge function `oauth` (service role) does the rest with
-- oauth_configs.client_secret, oauth_connection_tokens and oauth_states.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Per organisation and provider: the OAuth client registered by the organisation, and optional
-- overrides of the catalogue's authorisation and token addresses.
create table public.oauth_configs (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  provider_id text not null
    constraint oauth_configs_provider_id_check check (provider_id ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
  client_id text not null
    constraint oauth_configs_client_id_check check (char_length(client_id) between 1 and 500),
  -- Readable by the service role only (see the grants).
  client_secret text
    constraint oauth_configs_client_secret_length check (char_length(client_secret) <= 2000),
  has_client_secret boolean generated always as (client_secret is not null) stored,
  authorize_url text
    constraint oauth_configs_authorize_url_check check (
      authorize_url ~ '^https?://[^[:space:]]+$' and char_length(authorize_url) <= 2048
    ),
  token_url text
    constraint oauth_configs_token_url_check check (
      token_url ~ '^https?://[^[:space:]]+$' and char_length(token_url) <= 2048
    ),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint oauth_configs_organization_provider_key unique (organization_id, provider_id)
);

-- A user's connection to a provider. Tokens are in oauth_connection_tokens.
create table public.oauth_connections (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null
    constraint oauth_connections_provider_id_check check (provider_id ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  expires_at timestamptz,
  scopes text[] not null default '{}',
  is_active boolean not null default true,
  -- Set when a refresh failed: the user must connect again.
  needs_reconnect boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint oauth_connections_user_provider_key unique (user_id, provider_id)
);

-- The provider tokens of a connection, as the edge function stores them (encrypted by it;
-- opaque text here). Service role only.
create table public.oauth_connection_tokens (
  connection_id uuid primary key references public.oauth_connections (id) on delete cascade,
  access_token text not null,
  refresh_token text,
  -- A lease for refreshing: the function takes it with a conditional update
  -- (`refreshing_until is null or refreshing_until < now()`), so one refresh per connection runs
  -- at a time even under concurrent requests.
  refreshing_until timestamptz,
  updated_at timestamptz not null default now()
);

-- Pending authorisation requests: the SHA-256 (hex) of the random `state` bound to the user,
-- organisation and provider, valid briefly and usable once. Service role only.
create table public.oauth_states (
  id uuid primary key default gen_random_uuid(),
  state_hash text not null unique
    constraint oauth_states_state_hash_check check (state_hash ~ '^[0-9a-f]{64}$'),
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  provider_id text not null
    constraint oauth_states_provider_id_check check (provider_id ~ '^[a-z0-9][a-z0-9_-]{0,62}$'),
  redirect_uri text,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- oauth_configs: (organization_id, provider_id) is covered by its unique constraint.
-- oauth_connections: (user_id, provider_id) by its unique constraint.
create index oauth_connections_organization_id_idx on public.oauth_connections (organization_id);
create index oauth_states_user_id_idx on public.oauth_states (user_id);
create index oauth_states_organization_id_idx on public.oauth_states (organization_id);
create index oauth_states_expires_at_idx on public.oauth_states (expires_at);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger oauth_configs_touch_updated_at
  before update on public.oauth_configs
  for each row execute function private.touch_updated_at();
create trigger oauth_connections_touch_updated_at
  before update on public.oauth_connections
  for each row execute function private.touch_updated_at();
create trigger oauth_connection_tokens_touch_updated_at
  before update on public.oauth_connection_tokens
  for each row execute function private.touch_updated_at();

-- What the browser may know about its organisation's provider configuration: never the secret,
-- only whether one is set. security_invoker: the caller's privileges and policies apply.
create view public.oauth_provider_settings
with (security_invoker = true)
as
  select c.provider_id, c.client_id, c.has_client_secret, c.authorize_url, c.token_url,
         c.updated_at
  from public.oauth_configs c;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.oauth_configs enable row level security;
alter table public.oauth_connections enable row level security;
alter table public.oauth_connection_tokens enable row level security;
alter table public.oauth_states enable row level security;

create policy "members read their organisation's provider settings"
  on public.oauth_configs for select to authenticated
  using (organization_id = (select private.caller_organization_id()));

create policy "active members read their own connections"
  on public.oauth_connections for select to authenticated
  using (
    user_id = (select auth.uid())
    and organization_id = (select private.caller_organization_id())
  );

-- oauth_configs is written through save_oauth_config; oauth_connections by the edge function
-- (service role) and disconnect_oauth_connection; oauth_connection_tokens and oauth_states have
-- no policies: only the service role (which bypasses row-level security) uses them.

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Master admins register their organisation's OAuth client for a provider. A null or blank
-- client_secret keeps the stored one, so the secret can stay write-only in the interface.
create function public.save_oauth_config(
  provider_id text,
  client_id text,
  client_secret text,
  authorize_url text,
  token_url text
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
-- The parameters share names with columns (the API contract); in SQL, a bare name is a column.
#variable_conflict use_column
declare
  _me public.user_profiles := private.caller_profile();
  _provider_id text := private.trim_whitespace(coalesce(save_oauth_config.provider_id, ''));
  _client_id text := private.trim_whitespace(coalesce(save_oauth_config.client_id, ''));
  _client_secret text := nullif(private.trim_whitespace(save_oauth_config.client_secret), '');
  _authorize_url text := nullif(private.trim_whitespace(save_oauth_config.authorize_url), '');
  _token_url text := nullif(private.trim_whitespace(save_oauth_config.token_url), '');
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or _me.role <> 'master_admin' then
    raise exception 'Only master admins can configure OAuth providers';
  end if;
  if _provider_id !~ '^[a-z0-9][a-z0-9_-]{0,62}$' then
    raise exception 'Invalid provider id';
  end if;
  if _client_id = '' then
    raise exception 'Client ID is required';
  end if;
  if char_length(_client_id) > 500 then
    raise exception 'Client ID is too long';
  end if;
  if char_length(_client_secret) > 2000 then
    raise exception 'Client secret is too long';
  end if;
  if _authorize_url !~ '^https?://[^[:space:]]+$' or char_length(_authorize_url) > 2048 then
    raise exception 'Authorization URL must be an http or https address';
  end if;
  if _token_url !~ '^https?://[^[:space:]]+$' or char_length(_token_url) > 2048 then
    raise exception 'Token URL must be an http or https address';
  end if;

  insert into public.oauth_configs as c
    (organization_id, provider_id, client_id, client_secret, authorize_url, token_url)
  values (_me.organization_id, _provider_id, _client_id, _client_secret, _authorize_url, _token_url)
  on conflict (organization_id, provider_id) do update
    set client_id = excluded.client_id,
        client_secret = coalesce(excluded.client_secret, c.client_secret),
        authorize_url = excluded.authorize_url,
        token_url = excluded.token_url;
end
$$;

-- The connection's own user disconnects it: it stays listed as inactive, and its tokens are
-- deleted, so nothing can use them afterwards.
create function public.disconnect_oauth_connection(connection_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  update public.oauth_connections c
  set is_active = false, needs_reconnect = false
  where c.id = disconnect_oauth_connection.connection_id
    and c.user_id = _me.id
    and c.organization_id = private.caller_organization_id();
  if not found then
    raise exception 'Connection not found';
  end if;
  delete from public.oauth_connection_tokens t
  where t.connection_id = disconnect_oauth_connection.connection_id;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.oauth_configs, public.oauth_connections, public.oauth_connection_tokens,
  public.oauth_states, public.oauth_provider_settings from anon, authenticated;
-- Every column but client_secret; the view reads only these.
grant select (id, organization_id, provider_id, client_id, has_client_secret, authorize_url,
  token_url, created_at, updated_at) on public.oauth_configs to authenticated;
grant select on public.oauth_provider_settings to authenticated;
grant select on public.oauth_connections to authenticated;

revoke all on function public.save_oauth_config(text, text, text, text, text)
  from public, anon, authenticated;
revoke all on function public.disconnect_oauth_connection(uuid) from public, anon, authenticated;
grant execute on function public.save_oauth_config(text, text, text, text, text) to authenticated;
grant execute on function public.disconnect_oauth_connection(uuid) to authenticated;

-- ============================================================================================
-- supabase/schemas/08_organization_settings.sql
-- ============================================================================================

-- Organisation-wide settings that the specification keeps in one browser's local storage:
-- integration customisations, custom integrations, integration contacts and the corporate
-- status. Stored per organisation so the whole team sees the same (architecture.md, decisions).
-- The custom logo is the object `{organization_id}/logo.svg` in the bucket `branding`.
--
-- integration_key is the integration's name lower-cased with runs of non-alphanumerics replaced
-- by `-` (the specification's "lower-cased, hyphenated key").

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Master admins' edits of a built-in integration card, one row per integration.
create table public.integration_customizations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  integration_key text not null
    constraint integration_customizations_key_check check (
      integration_key ~ '^[a-z0-9-]{1,200}$' and integration_key ~ '[a-z0-9]'
    ),
  name text not null
    constraint integration_customizations_name_check check (
      name ~ '[^[:space:]]' and char_length(name) <= 200
    ),
  description text not null
    constraint integration_customizations_description_check check (
      description ~ '[^[:space:]]' and char_length(description) <= 2000
    ),
  url text not null
    constraint integration_customizations_url_check check (
      url ~ '^https?://[^[:space:]]+$' and char_length(url) <= 2048
    ),
  -- The specification's categories for editing an integration.
  category text not null
    constraint integration_customizations_category_check check (category in (
      'HRIS', 'Payroll', 'Benefits', 'Safety', 'Insurance', 'Accounting', 'Invoicing', 'Free',
      'Legal Services', 'E-Signature', 'Practice Management', 'Contract Management',
      'Compliance', 'Design', 'Professional', 'UI/UX', 'Monitoring', 'Management', 'Scheduling',
      'Enterprise', 'Visual', 'Internal', 'Email Marketing', 'Video', 'Volunteer',
      'Opportunities', 'Streaming', 'Podcast', 'Custom'
    )),
  tags text[] not null default '{}'
    constraint integration_customizations_tags_check check (
      cardinality(tags) <= 50 and array_position(tags, null) is null
    ),
  note text constraint integration_customizations_note_length check (char_length(note) <= 2000),
  updated_at timestamptz not null default now(),
  constraint integration_customizations_organization_key unique (organization_id, integration_key)
);

-- Integrations that master admins add to an operations category. The defaults are the
-- specification's starting values of a new integration.
create table public.custom_integrations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  operations_category text not null
    constraint custom_integrations_operations_category_check check (operations_category in (
      'hr', 'accounting', 'communications', 'legal', 'branding', 'social-media',
      'volunteer-management', 'streaming', 'it'
    )),
  name text not null default 'New Integration'
    constraint custom_integrations_name_check check (
      name ~ '[^[:space:]]' and char_length(name) <= 200
    ),
  description text not null default 'Custom integration for your organization'
    constraint custom_integrations_description_check check (
      description ~ '[^[:space:]]' and char_length(description) <= 2000
    ),
  url text not null default 'https://example.com'
    constraint custom_integrations_url_check check (
      url ~ '^https?://[^[:space:]]+$' and char_length(url) <= 2048
    ),
  category text not null default 'Custom'
    constraint custom_integrations_category_check check (category in (
      'HRIS', 'Payroll', 'Benefits', 'Safety', 'Insurance', 'Accounting', 'Invoicing', 'Free',
      'Legal Services', 'E-Signature', 'Practice Management', 'Contract Management',
      'Compliance', 'Design', 'Professional', 'UI/UX', 'Monitoring', 'Management', 'Scheduling',
      'Enterprise', 'Visual', 'Internal', 'Email Marketing', 'Video', 'Volunteer',
      'Opportunities', 'Streaming', 'Podcast', 'Custom'
    )),
  tags text[] not null default '{}'
    constraint custom_integrations_tags_check check (
      cardinality(tags) <= 50 and array_position(tags, null) is null
    ),
  note text constraint custom_integrations_note_length check (char_length(note) <= 2000),
  supports_oauth boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- A contact person per integration (only the name counts for "Active Contacts").
create table public.integration_contacts (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  integration_key text not null
    constraint integration_contacts_key_check check (
      integration_key ~ '^[a-z0-9-]{1,200}$' and integration_key ~ '[a-z0-9]'
    ),
  name text constraint integration_contacts_name_length check (char_length(name) <= 200),
  title text constraint integration_contacts_title_length check (char_length(title) <= 200),
  email text constraint integration_contacts_email_length check (char_length(email) <= 254),
  phone text constraint integration_contacts_phone_length check (char_length(phone) <= 50),
  company text constraint integration_contacts_company_length check (char_length(company) <= 200),
  notes text constraint integration_contacts_notes_length check (char_length(notes) <= 5000),
  updated_at timestamptz not null default now(),
  constraint integration_contacts_organization_key unique (organization_id, integration_key)
);

-- The legal page's Corporate Status Dashboard, one row per organisation.
create table public.corporate_status (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  entity_name text constraint corporate_status_entity_name_length check (char_length(entity_name) <= 300),
  entity_type text
    constraint corporate_status_entity_type_check check (entity_type in (
      'Non-Profit Corporation', 'Corporation', 'LLC', 'Partnership', 'Other'
    )),
  status text
    constraint corporate_status_status_check check (status in (
      'Active', 'Inactive', 'Suspended', 'Unknown'
    )),
  filing_date date,
  next_due_date date,
  annual_report_status text
    constraint corporate_status_annual_report_status_check check (annual_report_status in (
      'Current', 'Due Soon', 'Overdue', 'Unknown'
    )),
  last_updated timestamptz not null default now()
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- integration_customizations and integration_contacts: covered by their unique
-- (organization_id, integration_key); corporate_status: by its primary key.
create index custom_integrations_organization_id_category_idx
  on public.custom_integrations (organization_id, operations_category, created_at);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create function private.touch_last_updated()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.last_updated := now();
  return new;
end
$$;

create trigger integration_customizations_touch_updated_at
  before update on public.integration_customizations
  for each row execute function private.touch_updated_at();
create trigger custom_integrations_touch_updated_at
  before update on public.custom_integrations
  for each row execute function private.touch_updated_at();
create trigger integration_contacts_touch_updated_at
  before update on public.integration_contacts
  for each row execute function private.touch_updated_at();
create trigger corporate_status_touch_last_updated
  before update on public.corporate_status
  for each row execute function private.touch_last_updated();

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Every active member reads the settings; integration details are edited by master admins,
-- contacts and the corporate status by admins (specification §6).
alter table public.integration_customizations enable row level security;
alter table public.custom_integrations enable row level security;
alter table public.integration_contacts enable row level security;
alter table public.corporate_status enable row level security;

create policy "members read their organisation's integration customisations"
  on public.integration_customizations for select to authenticated
  using (organization_id = (select private.caller_organization_id()));
create policy "master admins add integration customisations"
  on public.integration_customizations for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('master_admin')));
create policy "master admins edit integration customisations"
  on public.integration_customizations for update to authenticated
  using (organization_id = (select private.caller_organization_id('master_admin')))
  with check (organization_id = (select private.caller_organization_id('master_admin')));
create policy "master admins remove integration customisations"
  on public.integration_customizations for delete to authenticated
  using (organization_id = (select private.caller_organization_id('master_admin')));

create policy "members read their organisation's custom integrations"
  on public.custom_integrations for select to authenticated
  using (organization_id = (select private.caller_organization_id()));
create policy "master admins add custom integrations"
  on public.custom_integrations for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('master_admin')));
create policy "master admins edit custom integrations"
  on public.custom_integrations for update to authenticated
  using (organization_id = (select private.caller_organization_id('master_admin')))
  with check (organization_id = (select private.caller_organization_id('master_admin')));
create policy "master admins remove custom integrations"
  on public.custom_integrations for delete to authenticated
  using (organization_id = (select private.caller_organization_id('master_admin')));

create policy "members read their organisation's integration contacts"
  on public.integration_contacts for select to authenticated
  using (organization_id = (select private.caller_organization_id()));
create policy "admins add integration contacts"
  on public.integration_contacts for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('admin')));
create policy "admins edit integration contacts"
  on public.integration_contacts for update to authenticated
  using (organization_id = (select private.caller_organization_id('admin')))
  with check (organization_id = (select private.caller_organization_id('admin')));
create policy "admins remove integration contacts"
  on public.integration_contacts for delete to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

create policy "members read their organisation's corporate status"
  on public.corporate_status for select to authenticated
  using (organization_id = (select private.caller_organization_id()));
create policy "admins record the corporate status"
  on public.corporate_status for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('admin')));
create policy "admins edit the corporate status"
  on public.corporate_status for update to authenticated
  using (organization_id = (select private.caller_organization_id('admin')))
  with check (organization_id = (select private.caller_organization_id('admin')));
create policy "admins clear the corporate status"
  on public.corporate_status for delete to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- ============================================================================================
-- Functions
-- ============================================================================================
-- None: these tables are plain reads and writes under the policies above.

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.integration_customizations, public.custom_integrations,
  public.integration_contacts, public.corporate_status from anon, authenticated;
grant select, insert, update, delete on public.integration_customizations,
  public.custom_integrations, public.integration_contacts, public.corporate_status
  to authenticated;

revoke all on function private.touch_last_updated() from public, anon, authenticated;

-- ============================================================================================
-- supabase/schemas/09_versions.sql
-- ============================================================================================

-- Versions of a document's file: renewing a document (10_renewals.sql), editing a text file's
-- content and replacing the file keep the previous file as a version instead of deleting it,
-- and restoring a version makes its file current again as a new change (the file it replaces
-- becomes a version in turn). Each row is a snapshot of the document as it was, with the file
-- it had (kept in storage under its own name) and why it was superseded. Each new file is
-- uploaded first under a new name in the organisation's folder; the functions make it the
-- document's file in one transaction. The history records each change (16_activity.sql's
-- trigger reads the version a change kept).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.document_versions (
  id uuid primary key default gen_random_uuid(),
  document_id uuid not null references public.documents (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- 1, 2, 3… per document, in the order they were superseded.
  version_number integer not null constraint document_versions_number_check check (version_number >= 1),
  -- Why this version was superseded (`properties_edit` is not used yet).
  change text not null
    constraint document_versions_change_check check (
      change in ('renewal', 'file_replacement', 'content_edit', 'properties_edit', 'version_restore')
    ),
  -- The file of this version: the storage object stays under this name in the organisation's
  -- folder (and counts towards its storage quota).
  file_path text not null
    constraint document_versions_file_path_in_folder check (
      file_path ~ ('^documents/' || organization_id::text || '/[^/]+$')
      and split_part(file_path, '/', 3) not in ('.', '..')
    ),
  size bigint not null constraint document_versions_size_check check (size >= 0),
  -- The document's properties as they were (name, category, tags, description, expiry_date).
  name text not null,
  expiry_date date,
  properties jsonb not null default '{}'::jsonb,
  -- Who uploaded this version's file, and when.
  uploaded_by uuid references public.user_profiles (id) on delete set null,
  uploaded_at timestamptz not null,
  -- Who superseded it, and when.
  replaced_by uuid references public.user_profiles (id) on delete set null,
  replaced_at timestamptz not null default now(),
  constraint document_versions_number_unique unique (document_id, version_number)
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index document_versions_organization_id_idx on public.document_versions (organization_id);
create index document_versions_file_path_idx on public.document_versions (file_path);
create index document_versions_uploaded_by_idx on public.document_versions (uploaded_by);
create index document_versions_replaced_by_idx on public.document_versions (replaced_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- Makes `file_path` (uploaded by the caller, a new object in the organisation's folder) the
-- file of the caller's document `document_id`, keeping the current file as its newest version
-- with `change`. Returns the updated document.
create function private.supersede_document_file(document_id uuid, file_path text, change text)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _document public.documents;
  _path text := private.trim_whitespace(coalesce(supersede_document_file.file_path, ''));
  _size bigint;
  _next integer;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _document from public.documents d
  where d.id = supersede_document_file.document_id and d.organization_id = _me.organization_id
    and d.deleted_at is null
  for update;
  if not found then
    raise exception 'Document not found';
  end if;
  if _path !~ ('^documents/' || _me.organization_id::text || '/[^/]+$')
     or split_part(_path, '/', 3) in ('.', '..') then
    raise exception 'The new file must be uploaded to the organization''s documents folder';
  end if;
  if _path = _document.file_path
     or exists (select 1 from public.documents d where d.file_path = _path)
     or exists (select 1 from public.document_versions v where v.file_path = _path) then
    raise exception 'The new file must be a new upload';
  end if;
  select (o.metadata ->> 'size')::bigint into _size
  from storage.objects o
  where o.bucket_id = 'documents' and o.name = _path and o.metadata ->> 'size' ~ '^[0-9]{1,18}$';
  if not found then
    raise exception 'The new file has not been uploaded';
  end if;

  select coalesce(max(v.version_number), 0) + 1 into _next
  from public.document_versions v where v.document_id = _document.id;
  insert into public.document_versions
    (document_id, organization_id, version_number, change, file_path, size, name, expiry_date,
     properties, uploaded_by, uploaded_at, replaced_by)
  values
    (_document.id, _document.organization_id, _next, supersede_document_file.change,
     _document.file_path, _document.size, _document.name, _document.expiry_date,
     jsonb_build_object('name', _document.name, 'category', _document.category,
                        'tags', to_jsonb(_document.tags), 'description', _document.description,
                        'expiry_date', _document.expiry_date),
     _document.uploaded_by, _document.upload_date, _me.id);

  update public.documents d
  set file_path = _path, size = _size, upload_date = now(), uploaded_by = _me.id
  where d.id = _document.id
  returning * into _document;
  return _document;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.document_versions enable row level security;

-- The versions of a trashed document are out of sight with it.
create policy "members read their organisation's document versions"
  on public.document_versions for select to authenticated
  using (
    organization_id = (select private.caller_organization_id())
    and exists (select 1 from public.documents d where d.id = document_id)
  );

-- No insert, update or delete policies: versions are written by the functions below and
-- renew_document, and go with their document.

-- ============================================================================================
-- Functions
-- ============================================================================================
-- A new file for a document: its edited content (`content_edit`, the default) or a
-- replacement (`file_replacement`). The previous file stays as the newest version.
create function public.replace_document_file(
  document_id uuid,
  file_path text,
  change text default 'content_edit'
)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
begin
  if replace_document_file.change is null
     or replace_document_file.change not in ('content_edit', 'file_replacement') then
    raise exception 'The change must be content_edit or file_replacement';
  end if;
  return private.supersede_document_file(replace_document_file.document_id,
                                         replace_document_file.file_path,
                                         replace_document_file.change);
end
$$;

-- Restores an earlier version: `file_path` is a copy of the version's file the caller made
-- (Storage copy) under a new name; it becomes the document's file, and the file it replaces
-- becomes the newest version. The version itself stays as it was.
create function public.restore_document_version(version_id uuid, file_path text)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _version public.document_versions;
  _copy_size bigint;
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  select v.* into _version from public.document_versions v
  join public.documents d on d.id = v.document_id and d.deleted_at is null
  where v.id = restore_document_version.version_id and v.organization_id = _organization_id;
  if not found then
    raise exception 'Version not found';
  end if;
  select (o.metadata ->> 'size')::bigint into _copy_size
  from storage.objects o
  where o.bucket_id = 'documents' and o.name = restore_document_version.file_path
    and o.metadata ->> 'size' ~ '^[0-9]{1,18}$';
  if found and _copy_size <> _version.size then
    raise exception 'The new file must be a copy of the version';
  end if;
  -- For the history's entry (migration …0810): which version came back.
  perform set_config('steward.restored_version', _version.version_number::text, true);
  return private.supersede_document_file(_version.document_id, restore_document_version.file_path,
                                         'version_restore');
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.document_versions from anon, authenticated;
grant select on public.document_versions to authenticated;

revoke all on function private.supersede_document_file(uuid, text, text) from public, anon, authenticated;
revoke all on function public.replace_document_file(uuid, text, text) from public, anon, authenticated;
revoke all on function public.restore_document_version(uuid, text) from public, anon, authenticated;
grant execute on function public.replace_document_file(uuid, text, text) to authenticated;
grant execute on function public.restore_document_version(uuid, text) to authenticated;

-- ============================================================================================
-- supabase/schemas/10_renewals.sql
-- ============================================================================================

-- Renewals: who is responsible for a document (documents.responsible_id), a "renewal in
-- progress" marker that pauses its reminders (documents.renewal_in_progress and
-- renewal_note), and Renew itself: a new file and a new expiry date in one step, which keeps
-- the previous file as a version (09_versions.sql) instead of deleting it.

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The responsible member defaults to the uploader and must be a member of the document's
-- organisation; the note goes with the marker.
create function private.check_document_responsible()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.responsible_id := coalesce(new.responsible_id, new.uploaded_by);
  end if;
  if new.responsible_id is not null
     and (tg_op = 'INSERT' or new.responsible_id is distinct from old.responsible_id)
     and not exists (
       select 1 from public.user_profiles p
       where p.id = new.responsible_id and p.organization_id = new.organization_id and p.is_active
     ) then
    raise exception 'The responsible member must be an active member of the organization'
      using errcode = '23514';
  end if;
  if not new.renewal_in_progress then
    new.renewal_note := null;
  else
    new.renewal_note := nullif(private.trim_whitespace(new.renewal_note), '');
  end if;
  return new;
end
$$;

create trigger documents_check_responsible
  before insert or update of responsible_id, renewal_in_progress, renewal_note on public.documents
  for each row execute function private.check_document_responsible();

-- ============================================================================================
-- Functions
-- ============================================================================================
-- Renew: the document gets a new file (already uploaded by the caller to `file_path` in the
-- organisation's folder) and a new expiry date in one step; the previous file stays as the
-- newest version. The marker is cleared, and a new expiry date starts a new reminder cycle.
-- A document in the trash is not found.
create function public.renew_document(document_id uuid, file_path text, expiry_date date)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _document public.documents;
  _path text := private.trim_whitespace(coalesce(renew_document.file_path, ''));
  _size bigint;
  _next integer;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _document from public.documents d
  where d.id = renew_document.document_id and d.organization_id = _me.organization_id
    and d.deleted_at is null
  for update;
  if not found then
    raise exception 'Document not found';
  end if;
  if renew_document.expiry_date is null then
    raise exception 'Expiry date is required';
  end if;
  if renew_document.expiry_date not between date '1900-01-01' and date '9999-12-31' then
    raise exception 'Expiry date must be between 1900 and 9999';
  end if;
  if _path !~ ('^documents/' || _me.organization_id::text || '/[^/]+$')
     or split_part(_path, '/', 3) in ('.', '..') then
    raise exception 'The new file must be uploaded to the organization''s documents folder';
  end if;
  if _path = _document.file_path
     or exists (select 1 from public.documents d where d.file_path = _path)
     or exists (select 1 from public.document_versions v where v.file_path = _path) then
    raise exception 'The new file must be a new upload';
  end if;
  select (o.metadata ->> 'size')::bigint into _size
  from storage.objects o
  where o.bucket_id = 'documents' and o.name = _path and o.metadata ->> 'size' ~ '^[0-9]{1,18}$';
  if not found then
    raise exception 'The new file has not been uploaded';
  end if;

  select coalesce(max(v.version_number), 0) + 1 into _next
  from public.document_versions v where v.document_id = _document.id;
  insert into public.document_versions
    (document_id, organization_id, version_number, change, file_path, size, name, expiry_date,
     properties, uploaded_by, uploaded_at, replaced_by)
  values
    (_document.id, _document.organization_id, _next, 'renewal', _document.file_path,
     _document.size, _document.name, _document.expiry_date,
     jsonb_build_object('name', _document.name, 'category', _document.category,
                        'tags', to_jsonb(_document.tags), 'description', _document.description,
                        'expiry_date', _document.expiry_date),
     _document.uploaded_by, _document.upload_date, _me.id);

  -- upload_date and uploaded_by describe the current file; created_at stays the document's.
  update public.documents d
  set file_path = _path,
      size = _size,
      expiry_date = renew_document.expiry_date,
      upload_date = now(),
      uploaded_by = _me.id,
      renewal_in_progress = false,
      renewal_note = null
  where d.id = _document.id
  returning * into _document;
  return _document;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function private.check_document_responsible() from public, anon, authenticated;
revoke all on function public.renew_document(uuid, text, date) from public, anon, authenticated;
grant execute on function public.renew_document(uuid, text, date) to authenticated;

-- ============================================================================================
-- supabase/schemas/11_reminders.sql
-- ============================================================================================

-- Reminders: once a day, at the hour an organisation chose in its time zone, every recipient
-- gets one digest listing the documents that reached a reminder threshold: so many days before
-- the expiry date (default 30, 7 and 1), on the day it becomes overdue and then weekly.
--
-- Each threshold fires once per renewal cycle: the log below is keyed by the document, its
-- expiry date and the threshold, and a new expiry date (a renewal) starts afresh. A document
-- marked "renewal in progress" is skipped (and nothing is logged for it, so its reminders
-- resume where they are due when the marker goes), and so is one in the trash. After
-- downtime, the next run sends what is due then: the nearest threshold passed, once. A run is claimed per organisation and local
-- date, so nothing is sent twice, also with two server processes on one PostgreSQL.
--
-- The embedded server runs this from its scheduler (server/reminders/); on hosted Supabase,
-- pg_cron calls the same functions (docs/reminders.md, 19_mail_worker.sql). Members turn their
-- own reminder e-mails off with user_profiles.email_reminders (01_organizations_and_profiles.sql).

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Per organisation; an organisation without a row uses the defaults.
create table public.reminder_settings (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  -- Days before the expiry date on which to remind, largest first, no duplicates.
  days_before integer[] not null default '{30,7,1}'
    constraint reminder_settings_days_before_check check (
      cardinality(days_before) <= 10
      and array_position(days_before, null) is null
      and 0 <= all (days_before) and 365 >= all (days_before)
    ),
  -- Remind on the day a document becomes overdue, then every 7 days.
  remind_overdue boolean not null default true,
  -- The local hour (0–23) in `time_zone` (an IANA name) at which the day's digests go out.
  send_hour integer not null default 8
    constraint reminder_settings_send_hour_check check (send_hour between 0 and 23),
  time_zone text not null default 'UTC'
    constraint reminder_settings_time_zone_length check (char_length(time_zone) between 1 and 64),
  -- The responsible member (falling back to the admins), all admins, or both.
  recipients text not null default 'both'
    constraint reminder_settings_recipients_check check (recipients in ('responsible', 'admins', 'both')),
  updated_at timestamptz not null default now()
);

-- Which threshold of which renewal cycle (document and expiry date) has fired.
create table private.reminder_log (
  document_id uuid not null references public.documents (id) on delete cascade,
  expiry_date date not null,
  -- `before:<days>` or `overdue:<weeks since it became overdue>`.
  threshold text not null,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  local_date date not null,
  created_at timestamptz not null default now(),
  primary key (document_id, expiry_date, threshold)
);

-- One reminder run per organisation and local date.
create table private.reminder_runs (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  local_date date not null,
  digests integer not null default 0,
  created_at timestamptz not null default now(),
  primary key (organization_id, local_date)
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index reminder_log_organization_id_idx on private.reminder_log (organization_id);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger reminder_settings_touch_updated_at
  before update on public.reminder_settings
  for each row execute function private.touch_updated_at();

-- Settings as stored: days sorted largest first without duplicates, a known time zone.
create function private.normalise_reminder_settings()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.days_before := array(select distinct d from unnest(new.days_before) d order by d desc);
  new.time_zone := private.trim_whitespace(new.time_zone);
  if not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = new.time_zone) then
    raise exception 'Unknown time zone: %', left(new.time_zone, 64) using errcode = '23514';
  end if;
  return new;
end
$$;

create trigger reminder_settings_normalise
  before insert or update on public.reminder_settings
  for each row execute function private.normalise_reminder_settings();

-- A new expiry date is a new renewal cycle: its thresholds fire again.
create function private.reset_reminder_cycle()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.reminder_log l where l.document_id = new.id;
  return null;
end
$$;

create trigger documents_reset_reminder_cycle
  after update of expiry_date on public.documents
  for each row when (old.expiry_date is distinct from new.expiry_date)
  execute function private.reset_reminder_cycle();

-- An organisation's settings, with the defaults where it has none.
create function private.reminder_settings_of(organization_id uuid)
returns public.reminder_settings
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(s.organization_id, reminder_settings_of.organization_id),
         coalesce(s.days_before, '{30,7,1}'), coalesce(s.remind_overdue, true),
         coalesce(s.send_hour, 8), coalesce(s.time_zone, 'UTC'), coalesce(s.recipients, 'both'),
         coalesce(s.updated_at, now())
  from (select 1) one
  left join public.reminder_settings s on s.organization_id = reminder_settings_of.organization_id
$$;

-- The threshold a document with `days_left` days to its expiry date has reached, or null: the
-- nearest reminder day at or above `days_left` (so a document added 5 days before its expiry
-- fires the 7-day reminder, once), or the overdue week. Overdue means the expiry date has
-- passed (day 1 of overdue is week 0).
create function private.reminder_threshold(days_left integer, days_before integer[], remind_overdue boolean)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when days_left >= 0 then
      (select 'before:' || min(d) from unnest(days_before) d where d >= days_left)
    when remind_overdue then 'overdue:' || ((-days_left - 1) / 7)
  end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.reminder_settings enable row level security;
alter table private.reminder_log enable row level security;
alter table private.reminder_runs enable row level security;

create policy "members read their organisation's reminder settings"
  on public.reminder_settings for select to authenticated
  using (organization_id = (select private.caller_organization_id()));

create policy "admins add their organisation's reminder settings"
  on public.reminder_settings for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('admin')));

create policy "admins change their organisation's reminder settings"
  on public.reminder_settings for update to authenticated
  using (organization_id = (select private.caller_organization_id('admin')))
  with check (organization_id = (select private.caller_organization_id('admin')));

create policy "admins reset their organisation's reminder settings"
  on public.reminder_settings for delete to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Organisations whose send hour has come today in their time zone, that have not had today's
-- run, and that have a document within reach of a threshold. The scheduler adds one job per
-- row; `at` is the scheduler's clock.
create function private.due_reminder_runs(at timestamptz)
returns table (organization_id uuid, local_date date)
language sql
stable
security definer
set search_path = ''
as $$
  select o.id, l.local_date
  from public.organizations o
  cross join lateral private.reminder_settings_of(o.id) s
  cross join lateral (
    select (due_reminder_runs.at at time zone s.time_zone) as local_time,
           (due_reminder_runs.at at time zone s.time_zone)::date as local_date
  ) l
  where extract(hour from l.local_time) >= s.send_hour
    and not exists (
      select 1 from private.reminder_runs r
      where r.organization_id = o.id and r.local_date = l.local_date
    )
    and exists (
      select 1 from public.documents d
      where d.organization_id = o.id
        and d.expiry_date <= l.local_date + coalesce((select max(x) from unnest(s.days_before) x), -1)
        and (s.remind_overdue or d.expiry_date >= l.local_date)
        and not d.renewal_in_progress
        and d.deleted_at is null
    )
$$;

-- One organisation's reminders for `local_date`: logs the thresholds that fire, and records one
-- digest per recipient (at most 100 documents listed, the rest counted). Returns the number of
-- digests, or 0 when this organisation's run for that date was made already.
create function private.run_reminders(organization_id uuid, local_date date)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _settings public.reminder_settings := private.reminder_settings_of(run_reminders.organization_id);
  _organization_name text;
  _recipient record;
  _digests integer := 0;
begin
  insert into private.reminder_runs as r (organization_id, local_date)
  values (run_reminders.organization_id, run_reminders.local_date)
  on conflict do nothing;
  if not found then
    return 0;
  end if;
  select o.name into _organization_name from public.organizations o
  where o.id = run_reminders.organization_id;

  -- The documents whose threshold fires now: logged once per cycle. (Qualified with pg_temp:
  -- the temporary schema must never stand in for another relation of this function.)
  create temporary table _fired (
    id uuid, name text, category text, expiry_date date, responsible_id uuid,
    days_left integer, threshold text
  ) on commit drop;
  with due as (
    select d.id, d.name, d.category, d.expiry_date, d.responsible_id,
           d.expiry_date - run_reminders.local_date as days_left,
           private.reminder_threshold(d.expiry_date - run_reminders.local_date,
                                      _settings.days_before, _settings.remind_overdue) as threshold
    from public.documents d
    where d.organization_id = run_reminders.organization_id
      and d.expiry_date is not null
      and not d.renewal_in_progress
      and d.deleted_at is null
  ), logged as (
    insert into private.reminder_log as l
      (document_id, expiry_date, threshold, organization_id, local_date)
    select due.id, due.expiry_date, due.threshold, run_reminders.organization_id,
           run_reminders.local_date
    from due where due.threshold is not null
    on conflict do nothing
    returning l.document_id
  )
  insert into pg_temp._fired
  select due.* from due join logged on logged.document_id = due.id;

  -- Who hears of each: the responsible member while an active member of the organisation
  -- (else the admins), the admins, or both; never someone who turned reminders off.
  for _recipient in
    with members as (
      select p.id, p.email, p.full_name, p.role, p.email_reminders
      from public.user_profiles p
      where p.organization_id = run_reminders.organization_id and p.is_active
    ), admins as (
      select m.id from members m where m.role in ('admin', 'master_admin')
    ), addressed as (
      select f.id as document_id, m.id as user_id
      from pg_temp._fired f join members m on m.id = f.responsible_id
      where _settings.recipients in ('responsible', 'both')
      union
      select f.id, a.id
      from pg_temp._fired f cross join admins a
      where _settings.recipients in ('admins', 'both')
         or (_settings.recipients = 'responsible'
             and not exists (select 1 from members m where m.id = f.responsible_id))
    )
    select m.id, m.email, m.full_name,
           count(*)::integer as total,
           (count(*) filter (where f.days_left < 0))::integer as overdue,
           (select jsonb_agg(jsonb_build_object(
                     'id', x.id, 'name', x.name, 'category', x.category,
                     'expiry_date', x.expiry_date, 'days_left', x.days_left,
                     'threshold', x.threshold) order by x.expiry_date, x.name)
            from (
              select f2.* from addressed a2 join pg_temp._fired f2 on f2.id = a2.document_id
              where a2.user_id = m.id order by f2.expiry_date, f2.name limit 100
            ) x) as items
    from addressed a
    join members m on m.id = a.user_id and m.email_reminders
    join pg_temp._fired f on f.id = a.document_id
    where private.is_email_address(m.email)
    group by m.id, m.email, m.full_name
  loop
    if private.queue_mail(
         run_reminders.organization_id, 'reminders', array[_recipient.email],
         format('Renewals at %s: %s', _organization_name, array_to_string(array[
           case when _recipient.overdue > 0 then _recipient.overdue || ' overdue' end,
           case when _recipient.total > _recipient.overdue
                then (_recipient.total - _recipient.overdue) || ' expiring soon' end], ', ')),
         jsonb_build_object(
           'recipient_name', coalesce(nullif(private.trim_whitespace(_recipient.full_name), ''),
                                      _recipient.email),
           'organization_name', _organization_name,
           'local_date', run_reminders.local_date,
           'total', _recipient.total,
           'overdue', _recipient.overdue,
           'items', _recipient.items),
         '[]'::jsonb, null,
         format('reminders:%s:%s', _recipient.id, run_reminders.local_date)) is not null then
      _digests := _digests + 1;
    end if;
  end loop;

  drop table pg_temp._fired;
  update private.reminder_runs r set digests = _digests
  where r.organization_id = run_reminders.organization_id and r.local_date = run_reminders.local_date;
  return _digests;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.reminder_settings from anon, authenticated;
grant select, delete on public.reminder_settings to authenticated;
grant insert (organization_id, days_before, remind_overdue, send_hour, time_zone, recipients)
  on public.reminder_settings to authenticated;
grant update (organization_id, days_before, remind_overdue, send_hour, time_zone, recipients)
  on public.reminder_settings to authenticated;
revoke all on private.reminder_log, private.reminder_runs from public, anon, authenticated;

revoke all on function private.normalise_reminder_settings() from public, anon, authenticated;
revoke all on function private.reset_reminder_cycle() from public, anon, authenticated;
revoke all on function private.reminder_settings_of(uuid) from public, anon, authenticated;
revoke all on function private.reminder_threshold(integer, integer[], boolean)
  from public, anon, authenticated;
revoke all on function private.due_reminder_runs(timestamptz) from public, anon, authenticated;
revoke all on function private.run_reminders(uuid, date) from public, anon, authenticated;

-- ============================================================================================
-- supabase/schemas/12_calendar.sql
-- ============================================================================================

-- Calendar feeds: each member may have one secret address from which a calendar application
-- reads the organisation's expiry dates (all of them, or only the documents the member is
-- responsible for) as an iCalendar feed, served by the edge function `calendar`.
--
-- The address holds a 244-bit token, shown once when it is made and stored only as its SHA-256
-- (in private.calendar_feed_tokens, which no API role reaches), as invitation tokens are.
-- Making a new address or removing it revokes the old one at once. A member who is deactivated
-- or leaves the organisation takes the feed along: it answers 404 from then on.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.calendar_feeds (
  id uuid primary key default gen_random_uuid(),
  -- One feed per member.
  user_id uuid not null unique references public.user_profiles (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- `all` documents of the organisation with an expiry date, or only `mine`.
  scope text not null constraint calendar_feeds_scope_check check (scope in ('all', 'mine')),
  created_at timestamptz not null default now(),
  -- When a calendar application last read it.
  last_fetched_at timestamptz
);

create table private.calendar_feed_tokens (
  feed_id uuid primary key references public.calendar_feeds (id) on delete cascade,
  token_hash text not null unique
    constraint calendar_feed_tokens_token_hash_check check (token_hash ~ '^[0-9a-f]{64}$')
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index calendar_feeds_organization_id_idx on public.calendar_feeds (organization_id);

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.calendar_feeds enable row level security;
alter table private.calendar_feed_tokens enable row level security;

create policy "members read their own calendar feed"
  on public.calendar_feeds for select to authenticated
  using (
    user_id = (select auth.uid())
    and organization_id = (select private.caller_organization_id())
  );

-- No insert, update or delete policies: feeds change through the functions below.

-- ============================================================================================
-- Functions
-- ============================================================================================
create type public.calendar_feed_result as (
  id uuid,
  scope text,
  -- The secret of the address; returned only here, once.
  token text,
  created_at timestamptz
);

-- A member makes their calendar address (replacing, and so revoking, any earlier one).
create function public.create_calendar_feed(scope text)
returns public.calendar_feed_result
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  _me public.user_profiles := private.caller_profile();
  _scope text := coalesce(nullif(private.trim_whitespace(create_calendar_feed.scope), ''), 'all');
  _token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
  _feed public.calendar_feeds;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if _scope not in ('all', 'mine') then
    raise exception 'Scope must be all or mine';
  end if;
  delete from public.calendar_feeds f where f.user_id = _me.id;
  insert into public.calendar_feeds (user_id, organization_id, scope)
  values (_me.id, _me.organization_id, _scope)
  returning * into _feed;
  insert into private.calendar_feed_tokens (feed_id, token_hash)
  values (_feed.id, private.hash_invitation_token(_token));
  return (_feed.id, _feed.scope, _token, _feed.created_at)::public.calendar_feed_result;
end
$$;

-- A member removes their calendar address; it answers 404 from now on.
create function public.revoke_calendar_feed()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  delete from public.calendar_feeds f where f.user_id = _me.id;
end
$$;

-- What the feed of `token` shows, for the `calendar` function (service role only): null for an
-- unknown, revoked or malformed token and for a member who is no longer active. Every token
-- takes the same path, a hash and one indexed lookup, so the time of a refusal tells nothing.
create function public.calendar_feed(token text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  _feed public.calendar_feeds;
  _settings public.reminder_settings;
  _result jsonb;
begin
  select f.* into _feed
  from private.calendar_feed_tokens t
  join public.calendar_feeds f on f.id = t.feed_id
  join public.user_profiles p
    on p.id = f.user_id and p.organization_id = f.organization_id and p.is_active
  where t.token_hash = private.hash_invitation_token(left(coalesce(calendar_feed.token, ''), 200));
  if not found then
    return null;
  end if;
  update public.calendar_feeds f set last_fetched_at = now() where f.id = _feed.id;
  _settings := private.reminder_settings_of(_feed.organization_id);
  select jsonb_build_object(
    'organization_name', o.name,
    'scope', _feed.scope,
    -- The alarm of each event: the first (largest) reminder threshold, if any.
    'alarm_days_before', (select max(d) from unnest(_settings.days_before) d),
    'events', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', d.id, 'name', d.name, 'category', d.category,
               'expiry_date', d.expiry_date, 'description', d.description,
               'renewal_in_progress', d.renewal_in_progress,
               'responsible_name', private.display_name(r),
               'updated_at', d.updated_at)
             order by d.expiry_date, d.id)
      from public.documents d
      left join public.user_profiles r on r.id = d.responsible_id
      where d.organization_id = _feed.organization_id
        and d.expiry_date is not null
        and d.deleted_at is null
        and (_feed.scope = 'all' or d.responsible_id = _feed.user_id)
    ), '[]'::jsonb))
  into _result
  from public.organizations o where o.id = _feed.organization_id;
  return _result;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.calendar_feeds from anon, authenticated;
grant select on public.calendar_feeds to authenticated;
revoke all on private.calendar_feed_tokens from public, anon, authenticated, service_role;

revoke all on function public.create_calendar_feed(text) from public, anon, authenticated;
revoke all on function public.revoke_calendar_feed() from public, anon, authenticated;
revoke all on function public.calendar_feed(text) from public, anon, authenticated;
grant execute on function public.create_calendar_feed(text) to authenticated;
grant execute on function public.revoke_calendar_feed() to authenticated;
-- Only the `calendar` function, with the service-role key, reads a feed.
grant execute on function public.calendar_feed(text) to service_role;

-- ============================================================================================
-- supabase/schemas/13_document_texts.sql
-- ============================================================================================

-- The text of every document, for searching inside files (issue 13).
--
-- A document's file is read in the background: at upload, and again whenever its stored object
-- changes (a new `storage.objects.version`), a job `document.extract-text` is queued for that
-- document and that version (private.enqueue_job, deduplicated, so each version is read once).
-- The embedded server's job runner extracts the text in its worker pool (server/search/) and
-- records it here; `state` tells the app whether the text is being read ("Indexing…"), ready, or
-- not available and why.
--
-- Each document also gets its full-text search vector here, kept current by the database:
-- `search_vector` holds the extracted text (weight C), parsed once per version, followed by the
-- document's name and tags (A), category and description (B), which are replaced whenever they
-- change: the text's part is kept by its weight (`ts_filter(…, '{c}')`), so an edited name never
-- re-parses a long text. One GIN index on it serves every search (14_search.sql).
--
-- On hosted Supabase no server runs the jobs: `private.text_extraction_settings.enabled` stays
-- false there, no job is queued, and documents say "Text not available" with the reason below;
-- search still covers name, tags, category and description. The embedded server turns
-- extraction on at start-up (`private.start_text_extraction_batch()`), which also queues every
-- existing document whose text was never read: a library whose text was never read is indexed
-- in the background after the first start.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- One row. `enabled` is set by the embedded server at every start; nothing else writes it.
create table private.text_extraction_settings (
  id boolean primary key default true constraint text_extraction_settings_one_row check (id),
  enabled boolean not null default false,
  updated_at timestamptz not null default now()
);
insert into private.text_extraction_settings default values;

create table public.document_texts (
  document_id uuid primary key references public.documents (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- The stored object version whose text this is (or is being read): storage.objects.version.
  object_version text,
  -- pending: queued or being read ("Indexing…"); ready: `content` holds the text; failed: the
  -- last attempt failed and another follows later (or all attempts failed); unavailable: the
  -- file holds no text that can be read (corrupt, encrypted, empty, a type without text).
  state text not null default 'pending'
    constraint document_texts_state_check check (state in ('pending', 'ready', 'failed', 'unavailable')),
  -- Why the text is not available, in words for the person who uploaded it.
  reason text constraint document_texts_reason_length check (char_length(reason) <= 500),
  content text not null default ''
    constraint document_texts_content_length check (char_length(content) <= 1000000),
  -- Whether `content` holds only the first part of the text (the file passed a limit).
  truncated boolean not null default false,
  -- Pages read (PDF), or null.
  pages integer constraint document_texts_pages_check check (pages >= 0),
  search_vector tsvector not null default ''::tsvector,
  extracted_at timestamptz,
  updated_at timestamptz not null default now()
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index document_texts_organization_id_state_idx
  on public.document_texts (organization_id, state);
-- Every search of the text, name, tags, category and description (14_search.sql).
create index document_texts_search_vector_idx
  on public.document_texts using gin (search_vector);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The words of a name or tag, with the separators of file names (`Annual-Report_2027.pdf`)
-- read as spaces, so that each part is a word of its own.
create function private.searchable_words(value text)
returns text
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.regexp_replace(coalesce(value, ''), '[._/\\-]+', ' ', 'g')
$$;

-- Every word both stemmed (english: "certificates" finds "certificate") and as written
-- (simple: the prefix "insura" of a word being typed finds "insurance", whose stem is "insur").
create function private.search_words(value text, weight "char")
returns tsvector
language sql
immutable
set search_path = ''
as $$
  select pg_catalog.setweight(
    pg_catalog.to_tsvector('pg_catalog.english'::regconfig, coalesce(value, ''))
      operator(pg_catalog.||) pg_catalog.to_tsvector('pg_catalog.simple'::regconfig, coalesce(value, '')),
    weight)
$$;

-- A document's name and tags (A), category and description (B): the part of its search vector
-- that follows its properties.
create function private.document_metadata_vector(
  name text, tags text[], category text, description text
)
returns tsvector
language sql
immutable
set search_path = ''
as $$
  select private.search_words(
           private.searchable_words(name) || ' ' || private.searchable_words(pg_catalog.array_to_string(tags, ' ')),
           'A')
         operator(pg_catalog.||)
         private.search_words(coalesce(category, '') || ' ' || coalesce(description, ''), 'B')
$$;

-- The version of the stored object a document points at, or null when there is none.
create function private.document_object_version(file_path text)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select o.version from storage.objects o where o.bucket_id = 'documents' and o.name = file_path
$$;

-- Queues the reading of `document_id`'s file at `object_version` (once per version).
create function private.queue_text_extraction(
  document_id uuid, organization_id uuid, object_version text
)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.enqueue_job(
    'document.extract-text',
    pg_catalog.jsonb_build_object('document_id', document_id, 'object_version', object_version),
    organization_id,
    'document.extract-text:' || document_id || ':' || coalesce(object_version, 'none'));
$$;

-- What a new text row says: queued where a server reads files, else why not.
create function private.text_extraction_enabled()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select s.enabled from private.text_extraction_settings s), false)
$$;

-- A new document: its search vector, and its file queued for reading.
create function private.document_text_on_insert()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _version text := private.document_object_version(new.file_path);
  _enabled boolean := private.text_extraction_enabled();
begin
  insert into public.document_texts (document_id, organization_id, object_version, state, reason,
                                     search_vector)
  values (new.id, new.organization_id, _version,
          case when _enabled then 'pending' else 'unavailable' end,
          case when _enabled then null else 'Text extraction does not run on this installation' end,
          private.document_metadata_vector(new.name, new.tags, new.category, new.description));
  if _enabled then
    perform private.queue_text_extraction(new.id, new.organization_id, _version);
  end if;
  return null;
end
$$;

create trigger documents_text_on_insert
  after insert on public.documents
  for each row execute function private.document_text_on_insert();

-- Changed properties: their part of the search vector follows at once; the text's part (weight
-- C) is kept as it is.
create function private.document_text_on_update()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.document_texts t
     set search_vector = pg_catalog.ts_filter(t.search_vector, '{c}')
                         operator(pg_catalog.||)
                         private.document_metadata_vector(new.name, new.tags, new.category,
                                                          new.description),
         updated_at = now()
   where t.document_id = new.id;
  return null;
end
$$;

create trigger documents_text_on_update
  after update of name, tags, category, description on public.documents
  for each row
  when (old.name is distinct from new.name or old.tags is distinct from new.tags
        or old.category is distinct from new.category
        or old.description is distinct from new.description)
  execute function private.document_text_on_update();

-- A new version of a document's file (edited content, a replaced file): read it again. The old
-- text stays searchable until the new one is ready.
create function private.document_text_on_new_version()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _document record;
begin
  if not private.text_extraction_enabled()
     or (tg_op = 'UPDATE' and old.version is not distinct from new.version) then
    return null;
  end if;
  for _document in
    select d.id, d.organization_id from public.documents d
     where d.file_path = new.name
       and d.organization_id::text = (storage.foldername(new.name))[2]
  loop
    update public.document_texts t
       set object_version = new.version, state = 'pending', reason = null, updated_at = now()
     where t.document_id = _document.id;
    perform private.queue_text_extraction(_document.id, _document.organization_id, new.version);
  end loop;
  return null;
end
$$;

create trigger documents_text_follows_file
  after insert or update of version on storage.objects
  for each row
  when (new.bucket_id = 'documents' and new.version is not null)
  execute function private.document_text_on_new_version();

-- Called by the embedded server at every start, a batch at a time (no single statement holds
-- the database for long: with 100,000 documents one statement kept PGlite, which runs one
-- statement at a time, busy for seconds just after start).
-- Turns extraction on and looks at up to `batch_size` documents after `after_id` (in id order;
-- null: from the first): adds the text rows of documents made before the text table existed,
-- and queues those whose current file was never read, or whose reading failed every attempt
-- (a restart is their "later"). Pending jobs are not queued twice (dedupe keys). Returns the
-- last id looked at, and how many were queued; a null id when no document is left.
create function private.start_text_extraction_batch(after_id uuid, batch_size integer)
returns table (last_id uuid, queued integer)
language plpgsql
security definer
set search_path = ''
as $$
declare
  _ids uuid[];
begin
  if batch_size is null or batch_size < 1 or batch_size > 10000 then
    raise exception 'batch_size must be between 1 and 10000';
  end if;
  update private.text_extraction_settings set enabled = true, updated_at = now() where not enabled;
  select array_agg(d.id order by d.id) into _ids
    from (select d.id from public.documents d
           where after_id is null or d.id > after_id
           order by d.id limit batch_size) d;
  if _ids is null then
    return query select null::uuid, 0;
    return;
  end if;
  insert into public.document_texts (document_id, organization_id, search_vector)
  select d.id, d.organization_id,
         private.document_metadata_vector(d.name, d.tags, d.category, d.description)
    from public.documents d
   where d.id = any (_ids)
     and not exists (select 1 from public.document_texts t where t.document_id = d.id);
  return query
  with stale as (
    update public.document_texts t
       set object_version = o.version, state = 'pending', reason = null, updated_at = now()
      from public.documents d
      left join storage.objects o on o.bucket_id = 'documents' and o.name = d.file_path
     where d.id = t.document_id
       and d.id = any (_ids)
       and (t.state in ('pending', 'failed')
            or (t.state = 'unavailable' and t.extracted_at is null)
            or t.object_version is distinct from o.version)
    returning t.document_id, t.organization_id, t.object_version
  )
  select _ids[cardinality(_ids)], count(*)::integer
    from stale s, lateral private.queue_text_extraction(s.document_id, s.organization_id, s.object_version) q;
end
$$;

-- Records what reading `object_version` of a document's file gave, unless the document has
-- moved on to another version meanwhile (then the newer job records its own). `ready` stores
-- the text and its search vector, the text's words first so that their positions never move
-- (a text whose vector would pass Postgres' 1 MB limit is cut until it fits, and marked
-- truncated); `unavailable` says why there is no text; `failed`
-- records the reason of a failed attempt and keeps the text read before, if any, until an
-- attempt succeeds. Returns whether it recorded anything.
create function private.record_document_text(
  document_id uuid,
  object_version text,
  state text,
  reason text default null,
  content text default '',
  pages integer default null,
  truncated boolean default false
)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  _content text := coalesce(content, '');
  _truncated boolean := coalesce(truncated, false);
  _vector tsvector := ''::tsvector;
begin
  if state = 'ready' then
    loop
      begin
        _vector := private.search_words(_content, 'C');
        exit;
      exception when program_limit_exceeded then
        _content := left(_content, char_length(_content) / 2);
        _truncated := true;
      end;
    end loop;
  end if;
  update public.document_texts t
     set state = record_document_text.state,
         reason = left(record_document_text.reason, 500),
         content = case when record_document_text.state = 'failed' then t.content else _content end,
         search_vector = case when record_document_text.state = 'failed' then t.search_vector
                              else _vector operator(pg_catalog.||)
                                   private.document_metadata_vector(d.name, d.tags, d.category,
                                                                    d.description) end,
         truncated = case when record_document_text.state = 'failed' then t.truncated
                          else _truncated end,
         pages = case when record_document_text.state = 'failed' then t.pages
                      else record_document_text.pages end,
         extracted_at = case when record_document_text.state = 'failed' then t.extracted_at
                             else now() end,
         updated_at = now()
    from public.documents d
   where d.id = t.document_id
     and t.document_id = record_document_text.document_id
     and t.object_version is not distinct from record_document_text.object_version;
  return found;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table private.text_extraction_settings enable row level security;
-- No policies: only the server and the functions above read or write it.
alter table public.document_texts enable row level security;

create policy "members read their organisation's document texts"
  on public.document_texts for select to authenticated
  using (organization_id = (select private.caller_organization_id()));

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Members read the state (and the text, which they may read in the file anyway); only the
-- triggers and the server write.
revoke all on public.document_texts from anon, authenticated;
grant select on public.document_texts to authenticated;
revoke all on private.text_extraction_settings from public, anon, authenticated;

revoke all on function private.searchable_words(text) from public, anon, authenticated;
revoke all on function private.search_words(text, "char") from public, anon, authenticated;
revoke all on function private.document_metadata_vector(text, text[], text, text)
  from public, anon, authenticated;
revoke all on function private.document_object_version(text) from public, anon, authenticated;
revoke all on function private.queue_text_extraction(uuid, uuid, text) from public, anon, authenticated;
revoke all on function private.text_extraction_enabled() from public, anon, authenticated;
revoke all on function private.document_text_on_insert() from public, anon, authenticated;
revoke all on function private.document_text_on_update() from public, anon, authenticated;
revoke all on function private.document_text_on_new_version() from public, anon, authenticated;
revoke all on function private.start_text_extraction_batch(uuid, integer) from public, anon, authenticated;
revoke all on function private.record_document_text(uuid, text, text, text, text, integer, boolean)
  from public, anon, authenticated;

-- ============================================================================================
-- supabase/schemas/14_search.sql
-- ============================================================================================

-- Search and list the organisation's documents one page at a time (issue 13): full-text search
-- over name, tags, category, description and the text inside the file (13_document_texts.sql),
-- with qualifiers, filters, every sort order, and the total count. The app's document lists all
-- come from here.
--
-- Searching inside files at 100,000 documents: as a security-invoker function the search read
-- every text of the organisation: row-level security keeps a caller's conditions behind the
-- policy's, and `@@` is not leakproof, so PostgreSQL may not search the GIN index of
-- document_texts with it; it scanned the organisation's texts one by one (1 s at 100,000
-- documents, against 2 ms through the index). search_documents therefore runs as its owner and
-- applies the documents policy's condition itself (the caller's organisation, nothing in the
-- trash), so every index is usable and each statement is planned with its real values. The text
-- of each document is read for the page's rows only.
--
-- Searching for words that match most of a large library: a word typed so far as "b" matches
-- every document, and counting and ranking 100,000 matches took 0.4 s on PostgreSQL 15 (count
-- 339 ms, ranking 73 ms; the page itself, newest first, 0.2 ms). The count of words' matches
-- stops at a limit, and past it the page is the newest matches. Without words or filters the
-- total is the organisation's counter (private.document_counts, 03_documents.sql).
--
-- The sort orders' indexes are those of public.documents (03_documents.sql).

-- ============================================================================================
-- Functions
-- ============================================================================================
create type public.document_search_result as (
  id uuid,
  organization_id uuid,
  name text,
  category text,
  expiry_date date,
  size bigint,
  status text,
  file_path text,
  tags text[],
  description text,
  uploaded_by uuid,
  uploader_name text,
  created_at timestamptz,
  upload_date timestamptz,
  updated_at timestamptz,
  -- pending ("Indexing…"), ready, failed or unavailable ("Text not available"), and why.
  text_state text,
  text_reason text,
  -- Where the words were found in the description or text, each word between <mark> and
  -- </mark>; null when they are not there (or only in the name, tags or category).
  snippet text,
  rank real,
  -- All documents that match, on every row of the page (at most `count_limit`, see below).
  total_count bigint,
  -- Who looks after each document and whether its renewal is under way (issue 14).
  responsible_id uuid,
  responsible_name text,
  renewal_in_progress boolean,
  renewal_note text,
  -- Whether `total_count` stopped at the limit ("more than 10,000").
  total_capped boolean
);

-- One page of the caller's organisation's documents.
--
-- `search` is what the search box holds: words (stemmed, and the last one also as a prefix
-- while it is being typed), "quoted phrases", `or`, `-word` (websearch_to_tsquery), and the
-- qualifiers `tag:x`, `category:x` (both case-insensitive; `"…"` for values with spaces) and
-- `expires:` followed by a date (`expires:<2027-01-01`, also `<=`, `>`, `>=`, `=`) or one of
-- overdue, soon, later, none. The filters narrow further: `expiry_filter` is overdue (before
-- today, UTC), soon (today to today + 30 days), later or none; `section_category` and
-- `section_tags` keep the documents of a category page (that category, or any of those tags).
-- `sort_by`: relevance (the default with words), upload_date (the default without), name,
-- category, expiry_date, size, status; `sort_descending` null takes each order's natural
-- direction. Security definer: every statement keeps to the caller's organisation and leaves
-- the trash out, as the documents policy does; a caller without one gets no rows.
--
-- Words are counted up to `count_limit` matches (at most, and by default, 10,000): past it
-- `total_count` is the limit and `total_capped` true ("more than 10,000"), and the page is the
-- newest first, since ranking every match of a word typed so far as "b" would cost more than it
-- tells. Without words the total is exact (the counter, or a count of the filter's matches).
create function public.search_documents(
  search text default null,
  category_filter text default null,
  tag_filter text default null,
  expiry_filter text default null,
  uploaded_by_filter uuid default null,
  section_category text default null,
  section_tags text[] default null,
  sort_by text default null,
  sort_descending boolean default null,
  page_offset integer default 0,
  page_size integer default 50,
  count_limit integer default 10000
)
returns setof public.document_search_result
language plpgsql
stable
security definer
set search_path = ''
-- The data of the embedded database is in memory and PostgreSQL's usually on SSD: reading a
-- page at random costs about what reading the next one does. With the default (4) the planner
-- scans every text of a large organisation rather than fetch the few hundred rows the search
-- index points at.
set random_page_cost = 1.1
as $$
declare
  -- A qualifier: its name, then a "quoted value" or a bare one.
  _qualifier constant text := '(^|\s)(tag|category|expires):("([^"]*)"?|([^\s"]*))';
  _today date := (now() at time zone 'UTC')::date;
  _match text[];
  _value text;
  _date date;
  _free text;
  _tags text[] := '{}';
  _categories text[] := '{}';
  _states text[] := '{}';
  _after date;
  _before date;
  _english tsquery;
  _simple tsquery;
  _query tsquery;
  _descending boolean;
  _sort text := coalesce(nullif(sort_by, ''), case when coalesce(search, '') ~ '\w' then 'relevance' else 'upload_date' end);
  _from text;
  _where text := '';
  _order text;
  _direction text;
  _total bigint;
  _limit integer := least(greatest(coalesce(page_size, 50), 1), 1000);
  _offset integer := greatest(coalesce(page_offset, 0), 0);
  _organization uuid := private.caller_organization_id();
  _count_limit integer := least(greatest(coalesce(count_limit, 10000), 1), 10000);
  _capped boolean := false;
begin
  if _organization is null then
    return;
  end if;
  if char_length(search) > 1000 then
    raise exception 'Search text must be at most 1000 characters';
  end if;

  -- Qualifiers first; what remains is the free text.
  for _match in select regexp_matches(coalesce(search, ''), _qualifier, 'gi') loop
    _value := coalesce(_match[4], _match[5]);
    case lower(_match[2])
      when 'tag' then
        if _value <> '' then _tags := _tags || lower(_value); end if;
      when 'category' then
        if _value <> '' then _categories := _categories || lower(_value); end if;
      else
        if lower(_value) in ('overdue', 'soon', 'later', 'none') then
          _states := _states || lower(_value);
        elsif _value ~ '^(<=|>=|<|>|=)?[0-9]{4}-[0-9]{2}-[0-9]{2}$' then
          begin
            _date := substring(_value from '[0-9]{4}-[0-9]{2}-[0-9]{2}$')::date;
          exception when others then
            raise exception 'Search: % is not a date', substring(_value from '[0-9-]+$');
          end;
          case substring(_value from '^[<>=]*')
            when '<' then _before := least(_before, _date);
            when '<=' then _before := least(_before, _date + 1);
            when '>' then _after := greatest(_after, _date);
            when '>=' then _after := greatest(_after, _date - 1);
            else
              _after := greatest(_after, _date - 1);
              _before := least(_before, _date + 1);
          end case;
        else
          raise exception 'Search: expires: takes a date such as expires:<2027-01-01, or overdue, soon, later or none';
        end if;
    end case;
  end loop;
  _free := regexp_replace(coalesce(search, ''), _qualifier, ' ', 'gi');

  -- The free text: stemmed words or words as written; the last word also as a prefix while it
  -- is being typed (the text ends in a letter or digit, not a space or a closing quote).
  if _free ~ '\w' then
    _english := websearch_to_tsquery('pg_catalog.english'::regconfig, _free);
    _simple := websearch_to_tsquery('pg_catalog.simple'::regconfig, _free);
  end if;
  if _free ~ '\w$' then
    if numnode(_english) > 0 and _english::text ~ '''$' then
      _english := (_english::text || ':*')::tsquery;
    end if;
    if numnode(_simple) > 0 and _simple::text ~ '''$' then
      _simple := (_simple::text || ':*')::tsquery;
    end if;
  end if;
  -- Both forms only where they differ (most words are their own stem), which also keeps the
  -- planner's estimate of the matches, and so its choice of the index, sound.
  _query := case
    when numnode(_english) > 0 and numnode(_simple) > 0 and _english::text <> _simple::text
      then _english || _simple
    when numnode(_simple) > 0 then _simple
  end;

  if category_filter is not null then
    _categories := _categories || lower(category_filter);
  end if;
  if tag_filter is not null then
    _tags := _tags || lower(tag_filter);
  end if;
  if expiry_filter is not null then
    if expiry_filter not in ('overdue', 'soon', 'later', 'none') then
      raise exception 'Expiry filter must be overdue, soon, later or none';
    end if;
    _states := _states || expiry_filter;
  end if;

  -- Each condition only when asked for, so the planner sees the simplest query. Values are
  -- parameters ($1…$10), never part of the text.
  if _query is not null then
    _where := _where || ' and t.search_vector @@ $3';
  end if;
  if cardinality(_tags) > 0 then
    _where := _where || ' and array(select lower(x) from unnest(d.tags) x) @> $1';
  end if;
  if cardinality(_categories) > 0 then
    _where := _where || ' and lower(d.category) = all ($2)';
  end if;
  if cardinality(_states) > 0 then
    _where := _where || $w$ and (case when d.expiry_date is null then 'none'
                                      when d.expiry_date < $4 then 'overdue'
                                      when d.expiry_date <= $4 + 30 then 'soon'
                                      else 'later' end) = any ($5)$w$;
  end if;
  if _after is not null then
    _where := _where || ' and d.expiry_date > $6';
  end if;
  if _before is not null then
    _where := _where || ' and d.expiry_date < $7';
  end if;
  if uploaded_by_filter is not null then
    _where := _where || ' and d.uploaded_by = $8';
  end if;
  if section_category is not null or cardinality(section_tags) > 0 then
    _where := _where || ' and (d.category = $9 or d.tags && $10)';
  end if;

  -- The documents policy's condition ($14); the texts only when words are searched for.
  _from := ' from public.documents d'
    || case when _query is not null
         then ' join public.document_texts t on t.document_id = d.id' else '' end
    || ' where d.organization_id = $14 and d.deleted_at is null';

  -- Without words or filters the total is the organisation's counter; words are counted up to
  -- the limit (one more tells that there are more); filters alone are counted exactly.
  if _where = '' then
    _total := private.live_document_count(_organization);
  elsif _query is not null then
    execute 'select count(*) from (select 1' || _from || _where || ' limit $15) c'
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            section_category, coalesce(section_tags, '{}'), null, null, null, _organization,
            _count_limit + 1;
    if _total > _count_limit then
      _total := _count_limit;
      _capped := true;
    end if;
  else
    execute 'select count(*)' || _from || _where
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            section_category, coalesce(section_tags, '{}'), null, null, null, _organization;
  end if;

  if _sort = 'relevance' and (_query is null or _capped) then
    _sort := 'upload_date';
  end if;
  _descending := coalesce(sort_descending, _sort in ('relevance', 'upload_date', 'size'));
  -- %1$s is the direction, %2$s the alias of the documents (inside the page and outside it).
  _order := case _sort
    when 'relevance' then 'rank %1$s, %2$s.upload_date %1$s, %2$s.created_at %1$s, %2$s.id %1$s'
    when 'upload_date' then '%2$s.upload_date %1$s, %2$s.created_at %1$s, %2$s.id %1$s'
    when 'name' then '%2$s.name %1$s, %2$s.id %1$s'
    when 'category' then '%2$s.category %1$s, %2$s.name %1$s, %2$s.id %1$s'
    when 'expiry_date' then '%2$s.expiry_date %1$s nulls last, %2$s.id %1$s'
    when 'size' then '%2$s.size %1$s, %2$s.id %1$s'
    when 'status' then '%2$s.status %1$s, %2$s.upload_date %1$s, %2$s.id %1$s'
  end;
  if _order is null then
    raise exception 'Cannot sort by %', _sort;
  end if;
  _direction := case when _descending then 'desc' else 'asc' end;

  -- The page first, then its snippets and uploader names: ts_headline reads the text, so it
  -- runs for the rows shown only.
  return query execute format(
    $q$
    select p.id, p.organization_id, p.name, p.category, p.expiry_date, p.size, p.status,
           p.file_path, p.tags, p.description, p.uploaded_by, u.full_name, p.created_at,
           p.upload_date, p.updated_at, x.state, x.reason,
           case when strpos(h.snippet, '<mark>') > 0 then h.snippet end,
           p.rank, $11, p.responsible_id, r.full_name, p.renewal_in_progress, p.renewal_note,
           $16
    from (
      select d.*, %s as rank
      %s %s
      order by %s
      limit $12 offset $13
    ) p
    left join public.document_texts x on x.document_id = p.id
    left join public.user_profiles u on u.id = p.uploaded_by
    left join public.user_profiles r on r.id = p.responsible_id
    -- A snippet only where the description or the text holds the words (not the name alone).
    left join lateral (
      select ts_headline('pg_catalog.english'::regconfig,
                         left(coalesce(p.description, '') || ' … ' || coalesce(x.content, ''), 100000), $3,
                         'MaxFragments=2, MinWords=5, MaxWords=18, StartSel=<mark>, StopSel=</mark>, FragmentDelimiter=" … "')
               as snippet
      where $3 is not null
    ) h on true
    order by %s
    $q$,
    case when _query is not null then 'ts_rank(t.search_vector, $3)' else 'null::real' end,
    _from, _where, format(_order, _direction, 'd'), format(_order, _direction, 'p'))
    using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
          section_category, coalesce(section_tags, '{}'), _total, _limit, _offset, _organization,
          null, _capped;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function public.search_documents(text, text, text, text, uuid, text, text[], text, boolean, integer, integer, integer)
  from public, anon, authenticated;
grant execute on function public.search_documents(text, text, text, text, uuid, text, text[], text, boolean, integer, integer, integer)
  to authenticated;

-- ============================================================================================
-- supabase/schemas/15_trash.sql
-- ============================================================================================

-- The trash (issue 15): deleting a document moves it to its organisation's trash, with its file,
-- its versions and everything else it had (documents.deleted_at and deleted_by). Row-level
-- security hides trashed documents from every list, counter and search (03_documents.sql); the
-- functions here list the trash, restore from it, and delete for ever (admins, or the server's
-- scheduler once a document has been in the trash longer than `private.trash_settings`'
-- retention, steward.toml `[trash] retention`).
--
-- Files are removed only when a document is deleted for ever: its storage rows go in the same
-- transaction as its row, and a `storage.remove-files` job then removes the bytes (a crash in
-- between leaves unreferenced bytes, which the storage server's start-up sweep removes too).
-- Until then trashed files keep counting towards the organisation's storage quota.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- One row: how long a document stays in the trash. The embedded server writes steward.toml's
-- `[trash] retention` here at start-up; on a hosted project, update it with SQL.
create table private.trash_settings (
  id boolean primary key default true constraint trash_settings_one_row check (id),
  retention interval not null default interval '30 days'
    constraint trash_settings_retention_positive check (retention > interval '0'),
  updated_at timestamptz not null default now()
);
insert into private.trash_settings default values;

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- Deletes trashed documents of one organisation for ever: their rows (their versions, texts
-- and reminder log go with them), their files' storage rows, and queues the removal of the
-- files' bytes. Returns how many documents went. Documents not in the trash are left alone.
create function private.purge_documents(organization_id uuid, document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _ids uuid[];
  _paths text[];
  _versions text[];
begin
  select coalesce(array_agg(d.id), '{}') into _ids
  from (
    select d.id from public.documents d
    where d.organization_id = purge_documents.organization_id
      and d.id = any (purge_documents.document_ids)
      and d.deleted_at is not null
    order by d.id
    for update
  ) d;
  if cardinality(_ids) = 0 then
    return 0;
  end if;
  select coalesce(array_agg(p.file_path), '{}') into _paths
  from (
    select d.file_path from public.documents d where d.id = any (_ids)
    union
    select v.file_path from public.document_versions v where v.document_id = any (_ids)
  ) p;
  delete from public.documents d where d.id = any (_ids);
  -- Storage refuses a direct delete of its rows unless asked to (as hosted Storage does): the
  -- bytes are removed by the job below, so nothing is left behind.
  perform set_config('storage.allow_delete_query', 'true', true);
  -- A file another document or version still names stays (none should, but a copy could).
  with removed as (
    delete from storage.objects o
    where o.bucket_id = 'documents' and o.name = any (_paths)
      and not exists (select 1 from public.documents d where d.file_path = o.name)
      and not exists (select 1 from public.document_versions v where v.file_path = o.name)
    returning o.version
  )
  select coalesce(array_agg(r.version) filter (where r.version is not null), '{}')
  into _versions from removed r;
  if cardinality(_versions) > 0 then
    perform private.enqueue_job('storage.remove-files',
                                jsonb_build_object('versions', to_jsonb(_versions)),
                                purge_documents.organization_id);
  end if;
  return cardinality(_ids);
end
$$;

-- The scheduler's purge: documents that have been in the trash longer than the retention at
-- `at`, at most `batch` of them per run (the next run takes the rest). Returns how many went.
create function private.purge_expired_trash(at timestamptz, batch integer default 1000)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _retention interval := (select s.retention from private.trash_settings s);
  _organization record;
  _purged integer := 0;
begin
  for _organization in
    select d.organization_id, array_agg(d.id) as ids
    from (
      select d.organization_id, d.id from public.documents d
      where d.deleted_at is not null and d.deleted_at <= purge_expired_trash.at - _retention
      order by d.deleted_at
      limit greatest(purge_expired_trash.batch, 1)
    ) d
    group by d.organization_id
  loop
    _purged := _purged + private.purge_documents(_organization.organization_id, _organization.ids);
  end loop;
  return _purged;
end
$$;

-- The name a restored document takes: its own, or when a document in use already has it,
-- "{name} (restored){extension}", then "(restored 2)"… so that both stay, told apart.
create function private.restored_document_name(organization_id uuid, name text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _parts text[] := regexp_match(restored_document_name.name, '^(.*[^.])(\.[^.]{1,20})$');
  _base text := left(coalesce(_parts[1], restored_document_name.name), 470);
  _extension text := coalesce(_parts[2], '');
  _candidate text := restored_document_name.name;
  _n integer := 1;
begin
  while exists (
    select 1 from public.documents d
    where d.organization_id = restored_document_name.organization_id
      and d.deleted_at is null and lower(d.name) = lower(_candidate)
  ) loop
    _candidate := _base || ' (restored' || case when _n > 1 then ' ' || _n else '' end || ')'
                  || _extension;
    _n := _n + 1;
  end loop;
  return _candidate;
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Members see and edit only documents in use; the trash is reached through list_trash and the
-- functions below. private.trash_settings: none; only the server, as the owner, reads and
-- writes it.
alter table private.trash_settings enable row level security;

-- ============================================================================================
-- Functions
-- ============================================================================================
-- Moves documents of the caller's organisation to the trash (the app's Delete, for one or
-- many). Every one of them, or (when one is not found, or already in the trash) none.
create function public.delete_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _ids uuid[] := array(select distinct x from unnest(delete_documents.document_ids) x
                       where x is not null);
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  update public.documents d
     set deleted_at = now(), deleted_by = auth.uid()
   where d.id = any (_ids) and d.organization_id = _organization_id and d.deleted_at is null;
  get diagnostics _changed = row_count;
  if _organization_id is null or _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
end
$$;

-- The caller's organisation's trash, most recently deleted first, with who deleted each
-- document and when it will be deleted for ever.
create type public.trash_entry as (
  id uuid,
  name text,
  category text,
  size bigint,
  file_path text,
  deleted_at timestamptz,
  deleted_by uuid,
  deleted_by_name text,
  purge_at timestamptz
);

create function public.list_trash()
returns setof public.trash_entry
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _retention interval := (select s.retention from private.trash_settings s);
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  return query
  select d.id, d.name, d.category, d.size, d.file_path, d.deleted_at, d.deleted_by,
         case when p.id is not null then private.display_name(p) end,
         d.deleted_at + _retention
  from public.documents d
  left join public.user_profiles p on p.id = d.deleted_by
  where d.organization_id = _organization_id and d.deleted_at is not null
  order by d.deleted_at desc, d.id;
end
$$;

-- Any member restores documents from the trash. A restored document whose name a document in
-- use has taken meanwhile gets "(restored)" in its name. Every one of them, or none.
create function public.restore_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _ids uuid[] := array(select distinct x from unnest(restore_documents.document_ids) x
                       where x is not null);
  _document record;
  _changed integer := 0;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  for _document in
    select d.id, d.name from public.documents d
    where d.id = any (_ids) and d.organization_id = _organization_id and d.deleted_at is not null
    order by d.deleted_at, d.id
    for update
  loop
    update public.documents d
       set deleted_at = null, deleted_by = null,
           name = private.restored_document_name(_organization_id, _document.name)
     where d.id = _document.id;
    _changed := _changed + 1;
  end loop;
  if _organization_id is null or _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found in the trash';
  end if;
  return _changed;
end
$$;

-- Admins delete documents in the trash for ever, with their files and versions.
create function public.purge_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('admin');
  _ids uuid[] := array(select distinct x from unnest(purge_documents.document_ids) x
                       where x is not null);
  _purged integer;
begin
  if _organization_id is null and private.caller_organization_id() is not null then
    raise exception 'Only admins can delete documents for ever';
  end if;
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  _purged := private.purge_documents(_organization_id, _ids);
  if _organization_id is null or _purged <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found in the trash';
  end if;
  return _purged;
end
$$;

-- Admins empty their organisation's trash. Returns how many documents went.
create function public.empty_trash()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('admin');
begin
  if _organization_id is null then
    if private.caller_organization_id() is not null then
      raise exception 'Only admins can delete documents for ever';
    end if;
    raise exception 'No organization found';
  end if;
  return private.purge_documents(
    _organization_id,
    array(select d.id from public.documents d
          where d.organization_id = _organization_id and d.deleted_at is not null));
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on private.trash_settings from public, anon, authenticated, service_role;

revoke all on function private.purge_documents(uuid, uuid[]) from public, anon, authenticated;
revoke all on function private.purge_expired_trash(timestamptz, integer) from public, anon, authenticated;
revoke all on function private.restored_document_name(uuid, text) from public, anon, authenticated;
revoke all on function public.delete_documents(uuid[]) from public, anon, authenticated;
revoke all on function public.list_trash() from public, anon, authenticated;
revoke all on function public.restore_documents(uuid[]) from public, anon, authenticated;
revoke all on function public.purge_documents(uuid[]) from public, anon, authenticated;
revoke all on function public.empty_trash() from public, anon, authenticated;
grant execute on function public.delete_documents(uuid[]) to authenticated;
grant execute on function public.list_trash() to authenticated;
grant execute on function public.restore_documents(uuid[]) to authenticated;
grant execute on function public.purge_documents(uuid[]) to authenticated;
grant execute on function public.empty_trash() to authenticated;

-- ============================================================================================
-- supabase/schemas/16_activity.sql
-- ============================================================================================

-- The history of every change (issue 15): an append-only log written by the database itself,
-- by triggers on the tables that change (and so by every rpc function and every API write),
-- never by a client. Nobody can insert, change or delete an entry through the API, the service
-- role and master admins included; an entry goes only with its organisation.
--
-- Each entry names the person who acted as they were named then (`actor_name`), so it still
-- does after they are deactivated or leave; null actor: the server itself (e.g. the trash's
-- automatic purge). Document entries keep the document's id and name after it is deleted for
-- ever. Members read their organisation's document entries (a document's History); admins
-- read all of it (the Activity page).
--
-- Kinds: document.uploaded, .updated (property changes, old and new value), .renamed,
-- .content_changed, .file_replaced, .renewed, .version_restored, .deleted (to the trash),
-- .restored, .purged; member.invited, .reinvited, .invitation_cancelled, .invitation_accepted,
-- .role_changed, .deactivated, .reactivated; connection.connected, .disconnected,
-- .refresh_failed; settings.changed (which area and fields, never their secret values),
-- settings.logo_changed, settings.logo_removed.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.activity_log (
  id bigint generated always as identity primary key,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  occurred_at timestamptz not null default now(),
  -- Who acted: null for the server itself. actor_name is their name at the time.
  actor_id uuid references public.user_profiles (id) on delete set null,
  actor_name text,
  kind text not null constraint activity_log_kind_check check (kind ~ '^[a-z]+\.[a-z_]+$'),
  -- The document concerned (no foreign key: the entry outlives the document).
  document_id uuid,
  -- What the entry is about, by name: the document, the member's e-mail, the provider…
  subject text,
  -- The change itself, e.g. {"changes": {"category": {"old": "HR", "new": "Legal"}}}.
  details jsonb not null default '{}'::jsonb
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- The Activity page (newest first, by organisation, optionally by person or kind) and a
-- document's History.
create index activity_log_organization_id_idx
  on public.activity_log (organization_id, occurred_at desc, id desc);
create index activity_log_organization_kind_idx
  on public.activity_log (organization_id, kind, occurred_at desc);
create index activity_log_actor_id_idx on public.activity_log (actor_id, occurred_at desc);
create index activity_log_document_id_idx
  on public.activity_log (document_id, occurred_at desc) where document_id is not null;

-- ============================================================================================
-- Helpers
-- ============================================================================================

-- Records one entry, acted by the caller (auth.uid(), null for the server).
create function private.log_activity(
  organization_id uuid,
  kind text,
  document_id uuid,
  subject text,
  details jsonb default '{}'::jsonb
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _actor public.user_profiles;
begin
  select * into _actor from public.user_profiles p where p.id = auth.uid();
  insert into public.activity_log (organization_id, actor_id, actor_name, kind, document_id,
                                   subject, details)
  values (log_activity.organization_id, _actor.id,
          case when _actor.id is not null then private.display_name(_actor) end,
          log_activity.kind, log_activity.document_id, log_activity.subject,
          coalesce(log_activity.details, '{}'::jsonb));
end
$$;

-- Whether an organisation still exists: rows deleted with it (a cascade) log nothing.
create function private.organization_exists(organization_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (select 1 from public.organizations o where o.id = organization_exists.organization_id)
$$;

-- Entries are never changed, and deleted only with their organisation. One change is the
-- database's own: when a member's profile is deleted, their entries lose the link to it
-- (`on delete set null`) and keep their name (`actor_name`).
create function private.keep_activity_log()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and not private.organization_exists(old.organization_id) then
    return old;
  end if;
  if tg_op = 'UPDATE' and new.actor_id is null and old.actor_id is not null
     and (new.id, new.organization_id, new.occurred_at, new.actor_name, new.kind,
          new.document_id, new.subject, new.details)
         is not distinct from
         (old.id, old.organization_id, old.occurred_at, old.actor_name, old.kind,
          old.document_id, old.subject, old.details)
     and not exists (select 1 from public.user_profiles p where p.id = old.actor_id) then
    return new;
  end if;
  raise exception 'The history cannot be changed' using errcode = '42501';
end
$$;

create trigger activity_log_append_only
  before update or delete on public.activity_log
  for each row execute function private.keep_activity_log();

-- A member's name for the history (null when there is no such member).
create function private.member_name(user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select private.display_name(p) from public.user_profiles p where p.id = member_name.user_id
$$;

-- Documents: upload, property changes (old and new value), file changes (by the version the
-- change kept: Renew, content edit, replacement, version restore), trash, restore, purge.
create function private.log_document_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _changes jsonb;
  _version public.document_versions;
  _kind text;
  _details jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.log_activity(new.organization_id, 'document.uploaded', new.id, new.name,
      jsonb_build_object('category', new.category, 'size', new.size));
    return null;
  end if;
  if tg_op = 'DELETE' then
    if private.organization_exists(old.organization_id) then
      perform private.log_activity(old.organization_id, 'document.purged', old.id, old.name);
    end if;
    return null;
  end if;

  if old.deleted_at is null and new.deleted_at is not null then
    perform private.log_activity(new.organization_id, 'document.deleted', new.id, new.name);
    return null;
  end if;
  if old.deleted_at is not null and new.deleted_at is null then
    perform private.log_activity(new.organization_id, 'document.restored', new.id, new.name,
      case when new.name is distinct from old.name
           then jsonb_build_object('changes', jsonb_build_object(
                  'name', jsonb_build_object('old', old.name, 'new', new.name)))
           else '{}'::jsonb end);
    return null;
  end if;

  -- The properties a person changes, each with its old and new value (long texts shortened).
  select coalesce(jsonb_object_agg(o.key, jsonb_build_object(
           'old', case when jsonb_typeof(o.value) = 'string' then to_jsonb(left(o.value #>> '{}', 500)) else o.value end,
           'new', case when jsonb_typeof(n.value) = 'string' then to_jsonb(left(n.value #>> '{}', 500)) else n.value end)),
         '{}'::jsonb)
  into _changes
  from jsonb_each(to_jsonb(old)) o
  join jsonb_each(to_jsonb(new)) n on n.key = o.key
  where o.key in ('name', 'category', 'expiry_date', 'tags', 'description',
                  'renewal_in_progress', 'renewal_note')
    and o.value is distinct from n.value;
  if new.responsible_id is distinct from old.responsible_id then
    _changes := _changes || jsonb_build_object('responsible', jsonb_build_object(
      'old', private.member_name(old.responsible_id), 'new', private.member_name(new.responsible_id)));
  end if;

  if new.file_path is distinct from old.file_path then
    select * into _version from public.document_versions v
    where v.document_id = new.id and v.file_path = old.file_path
    order by v.version_number desc limit 1;
    _kind := case _version.change
               when 'renewal' then 'document.renewed'
               when 'version_restore' then 'document.version_restored'
               when 'file_replacement' then 'document.file_replaced'
               else 'document.content_changed'
             end;
    _details := jsonb_build_object('size', jsonb_build_object('old', old.size, 'new', new.size),
                                   'version_number', _version.version_number);
    if _version.change = 'version_restore' then
      -- restore_document_version names the version it brought back for this entry.
      _details := _details || jsonb_build_object('restored_version',
        nullif(current_setting('steward.restored_version', true), '')::integer);
    end if;
    if _changes <> '{}'::jsonb then
      _details := _details || jsonb_build_object('changes', _changes);
    end if;
    perform private.log_activity(new.organization_id, _kind, new.id, new.name, _details);
  elsif new.content_sha256 is distinct from old.content_sha256 and old.content_sha256 is not null then
    -- The file was overwritten where it is (an edit through the Storage API).
    perform private.log_activity(new.organization_id, 'document.content_changed', new.id, new.name,
      jsonb_build_object('size', jsonb_build_object('old', old.size, 'new', new.size)));
  elsif _changes <> '{}'::jsonb then
    perform private.log_activity(new.organization_id,
      case when (select array_agg(k) from jsonb_object_keys(_changes) k) = array['name']
           then 'document.renamed' else 'document.updated' end,
      new.id, new.name, jsonb_build_object('changes', _changes));
  end if;
  return null;
end
$$;

create trigger documents_log_activity
  after insert or update or delete on public.documents
  for each row execute function private.log_document_change();

-- Members: invitations (sent, sent again, cancelled, accepted), role changes, deactivation.
create function private.log_invitation_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    perform private.log_activity(new.organization_id, 'member.invited', null, new.email,
      jsonb_build_object('role', new.role));
  elsif tg_op = 'DELETE' then
    if old.accepted_at is null and private.organization_exists(old.organization_id) then
      perform private.log_activity(old.organization_id, 'member.invitation_cancelled', null,
                                   old.email);
    end if;
  elsif old.accepted_at is null and new.accepted_at is not null then
    perform private.log_activity(new.organization_id, 'member.invitation_accepted', null,
      new.email, jsonb_build_object('role', new.role));
  elsif new.accepted_at is null and (new.created_at is distinct from old.created_at
                                     or new.role is distinct from old.role) then
    perform private.log_activity(new.organization_id, 'member.reinvited', null, new.email,
      jsonb_build_object('role', new.role));
  end if;
  return null;
end
$$;

create trigger user_invitations_log_activity
  after insert or update or delete on public.user_invitations
  for each row execute function private.log_invitation_change();

create function private.log_member_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.organization_id is null or new.organization_id is distinct from old.organization_id then
    return null;
  end if;
  if new.role is distinct from old.role then
    perform private.log_activity(new.organization_id, 'member.role_changed', null,
      private.display_name(new),
      jsonb_build_object('member_id', new.id,
                         'changes', jsonb_build_object('role', jsonb_build_object(
                           'old', old.role, 'new', new.role))));
  end if;
  if new.is_active is distinct from old.is_active then
    perform private.log_activity(new.organization_id,
      case when new.is_active then 'member.reactivated' else 'member.deactivated' end, null,
      private.display_name(new), jsonb_build_object('member_id', new.id));
  end if;
  return null;
end
$$;

create trigger user_profiles_log_activity
  after update of role, is_active on public.user_profiles
  for each row execute function private.log_member_change();

-- Connections to outside services: connected, disconnected, a refresh that failed.
create function private.log_connection_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _who text := private.member_name(new.user_id);
begin
  if tg_op = 'INSERT' or (new.is_active and not old.is_active) then
    perform private.log_activity(new.organization_id, 'connection.connected', null,
      new.provider_id, jsonb_build_object('member', _who));
  elsif old.is_active and not new.is_active then
    perform private.log_activity(new.organization_id, 'connection.disconnected', null,
      new.provider_id, jsonb_build_object('member', _who));
  elsif new.needs_reconnect and not old.needs_reconnect then
    perform private.log_activity(new.organization_id, 'connection.refresh_failed', null,
      new.provider_id, jsonb_build_object('member', _who));
  end if;
  return null;
end
$$;

create trigger oauth_connections_log_activity
  after insert or update of is_active, needs_reconnect on public.oauth_connections
  for each row execute function private.log_connection_change();

-- Organisation settings: which area and which fields changed (never their values: some are
-- secrets, such as an OAuth client secret).
create function private.log_settings_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _row jsonb := to_jsonb(coalesce(new, old));
  _organization_id uuid := coalesce((_row ->> 'organization_id')::uuid,
                                    case when tg_table_name = 'organizations'
                                         then (_row ->> 'id')::uuid end);
  _fields jsonb;
begin
  if _organization_id is null or not private.organization_exists(_organization_id) then
    return null;
  end if;
  if tg_op = 'UPDATE' then
    select coalesce(jsonb_agg(o.key order by o.key), '[]'::jsonb) into _fields
    from jsonb_each(to_jsonb(old)) o join jsonb_each(to_jsonb(new)) n on n.key = o.key
    where o.value is distinct from n.value
      and o.key not in ('id', 'organization_id', 'updated_at', 'created_at', 'has_client_secret');
    if _fields = '[]'::jsonb then
      return null;
    end if;
  end if;
  perform private.log_activity(_organization_id, 'settings.changed', null,
    coalesce(_row ->> 'integration_key', _row ->> 'provider_id', _row ->> 'name'),
    jsonb_build_object('area', tg_table_name, 'operation', lower(tg_op))
      || case when _fields is not null then jsonb_build_object('fields', _fields) else '{}'::jsonb end);
  return null;
end
$$;

create trigger organizations_log_activity
  after update of name on public.organizations
  for each row execute function private.log_settings_change();
create trigger integration_customizations_log_activity
  after insert or update or delete on public.integration_customizations
  for each row execute function private.log_settings_change();
create trigger custom_integrations_log_activity
  after insert or update or delete on public.custom_integrations
  for each row execute function private.log_settings_change();
create trigger integration_contacts_log_activity
  after insert or update or delete on public.integration_contacts
  for each row execute function private.log_settings_change();
create trigger corporate_status_log_activity
  after insert or update or delete on public.corporate_status
  for each row execute function private.log_settings_change();
create trigger oauth_configs_log_activity
  after insert or update or delete on public.oauth_configs
  for each row execute function private.log_settings_change();
create trigger reminder_settings_log_activity
  after insert or update or delete on public.reminder_settings
  for each row execute function private.log_settings_change();

-- The organisation's logo (bucket `branding`, `{organization_id}/logo.svg`).
create function private.log_logo_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _object storage.objects := coalesce(new, old);
  _organization_id uuid := private.object_organization_id(_object.bucket_id, _object.name);
begin
  if _object.bucket_id <> 'branding' or _organization_id is null
     or not private.organization_exists(_organization_id) then
    return null;
  end if;
  -- An upload's row is written twice (checked first, then with its size): log the final one.
  if tg_op <> 'DELETE' and coalesce(_object.metadata ->> 'size', '') !~ '^[0-9]+$' then
    return null;
  end if;
  perform private.log_activity(_organization_id,
    case when tg_op = 'DELETE' then 'settings.logo_removed' else 'settings.logo_changed' end,
    null, 'logo');
  return null;
end
$$;

create trigger branding_objects_log_activity
  after insert or update or delete on storage.objects
  for each row execute function private.log_logo_change();

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.activity_log enable row level security;

-- Members read the history of their organisation's documents; admins read everything.
create policy "members read their organisation's document history, admins all of it"
  on public.activity_log for select to authenticated
  using (
    organization_id = (select private.caller_organization_id())
    and (document_id is not null
         or organization_id = (select private.caller_organization_id('admin')))
  );

-- ============================================================================================
-- Grants
-- ============================================================================================
-- Read only, for everyone; written by the triggers above alone.
revoke all on public.activity_log from public, anon, authenticated, service_role;
grant select on public.activity_log to authenticated, service_role;

revoke all on function private.log_activity(uuid, text, uuid, text, jsonb) from public, anon, authenticated;
revoke all on function private.organization_exists(uuid) from public, anon, authenticated;
revoke all on function private.keep_activity_log() from public, anon, authenticated;
revoke all on function private.member_name(uuid) from public, anon, authenticated;
revoke all on function private.log_document_change() from public, anon, authenticated;
revoke all on function private.log_invitation_change() from public, anon, authenticated;
revoke all on function private.log_member_change() from public, anon, authenticated;
revoke all on function private.log_connection_change() from public, anon, authenticated;
revoke all on function private.log_settings_change() from public, anon, authenticated;
revoke all on function private.log_logo_change() from public, anon, authenticated;

-- ============================================================================================
-- supabase/schemas/17_two_factor.sql
-- ============================================================================================

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
-- supabase/schemas/18_transfer.sql
-- ============================================================================================

-- Export and import of a whole organisation (issue 15, item 4).
--
-- An admin starts an export with `start_organization_export`; the server's job
-- `organization.export` (server/transfer/) writes one ZIP (every document's current file, and
-- its earlier versions when asked, in folders by category, with manifest.json and manifest.csv)
-- into the private bucket `exports` under `{organization_id}/{export_id}.zip`, which the
-- organisation's admins may download until it expires (steward.toml `[transfer]
-- export_retention`). An admin imports such a ZIP by uploading it to the private bucket
-- `imports` under `{organization_id}/…` and calling `start_organization_import`; the job
-- `organization.import` checks the whole file first (a hostile or foreign ZIP is refused with
-- a message and nothing is written) and then adds its documents in one transaction, within
-- the organisation's storage quota. Both are recorded in the history. Neither table is written
-- through the API: the functions below and the server's jobs write them.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.organization_exports (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  requested_by uuid references public.user_profiles (id) on delete set null,
  include_versions boolean not null default false,
  status text not null default 'queued'
    constraint organization_exports_status_check
    check (status in ('queued', 'running', 'ready', 'failed', 'expired')),
  -- How far the ZIP is written, 0–100 (an estimate from the bytes written).
  progress integer not null default 0
    constraint organization_exports_progress_check check (progress between 0 and 100),
  document_count integer,
  -- The object in bucket `exports` while the export is ready.
  file_path text,
  size bigint,
  error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  expires_at timestamptz
);

create table public.organization_imports (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  requested_by uuid references public.user_profiles (id) on delete set null,
  -- The uploaded ZIP in bucket `imports` (removed once the import has run).
  file_path text not null,
  status text not null default 'queued'
    constraint organization_imports_status_check
    check (status in ('queued', 'running', 'done', 'failed')),
  document_count integer,
  -- Why the import was refused, in words for the admin.
  error text,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);

-- Private buckets: an export is downloaded with the admin's token or a signed link. Imports
-- take any type (browsers name ZIPs differently); the job reads the bytes, not the type.
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values
  ('exports', 'exports', false, null, '{application/zip}'),
  ('imports', 'imports', false, null, null)
on conflict (id) do nothing;

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index organization_exports_organization_id_idx
  on public.organization_exports (organization_id, created_at desc);
create index organization_exports_requested_by_idx on public.organization_exports (requested_by);
create index organization_exports_expires_at_idx
  on public.organization_exports (expires_at) where status = 'ready';
create index organization_imports_organization_id_idx
  on public.organization_imports (organization_id, created_at desc);
create index organization_imports_requested_by_idx on public.organization_imports (requested_by);

-- ============================================================================================
-- Helpers
-- ============================================================================================

-- The caller's profile when they are an active admin of an organisation; raises otherwise.
create function private.transfer_admin(refusal text)
returns public.user_profiles
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception '%', refusal;
  end if;
  return _me;
end
$$;

-- Adds the documents of an import (checked by the server) to its organisation in the caller's
-- transaction, which the server runs as the admin who started it (so the history and
-- `uploaded_by` name them): each file's storage row (the bytes are already stored under
-- `version`), then the document. The responsible member is the person of the same e-mail
-- address when they are an active member here, else the admin. The quota trigger on
-- storage.objects refuses the whole import when it does not fit.
create function private.finish_organization_import(import_id uuid, documents jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _import public.organization_imports;
  _document jsonb;
  _path text;
  _responsible uuid;
  _count integer := 0;
begin
  select * into _import from public.organization_imports i where i.id = import_id for update;
  if _import.id is null or _import.status <> 'running' then
    raise exception 'The import is not running';
  end if;
  for _document in select * from jsonb_array_elements(documents) loop
    _path := 'documents/' || _import.organization_id || '/' || (_document ->> 'object_name');
    insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
    values ('documents', _path, _import.requested_by, _import.requested_by::text,
            _document ->> 'version', _document -> 'metadata');
    select p.id into _responsible from public.user_profiles p
    where p.organization_id = _import.organization_id and p.is_active
      and lower(p.email) = lower(_document ->> 'responsible_email');
    insert into public.documents (organization_id, name, category, expiry_date, size, file_path,
                                  tags, description, uploaded_by, responsible_id)
    values (_import.organization_id, _document ->> 'name', _document ->> 'category',
            (_document ->> 'expiry_date')::date, (_document ->> 'size')::bigint, _path,
            coalesce(array(select jsonb_array_elements_text(_document -> 'tags')), '{}'),
            _document ->> 'description', _import.requested_by,
            coalesce(_responsible, _import.requested_by));
    _count := _count + 1;
  end loop;
  update public.organization_imports
  set status = 'done', document_count = _count, finished_at = now(), error = null
  where id = import_id;
  perform private.log_activity(_import.organization_id, 'organization.imported', null, null,
    jsonb_build_object('documents', _count));
  return _count;
end
$$;

-- The scheduler's clean-up at `at`: exports past their expiry lose their file (the export row
-- stays, `expired`, as a record), and uploaded import ZIPs that no import is using and that are
-- older than a day are removed. The bytes go by the job `storage.remove-files`.
create function private.expire_organization_transfers(at timestamptz)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _versions text[];
begin
  perform set_config('storage.allow_delete_query', 'true', true);
  with expired as (
    update public.organization_exports e
    set status = 'expired', file_path = null
    where e.status = 'ready' and e.expires_at <= expire_organization_transfers.at
    returning e.organization_id, e.id
  ), removed as (
    delete from storage.objects o
    using expired e
    where o.bucket_id = 'exports' and o.name = e.organization_id || '/' || e.id || '.zip'
    returning o.version
  ), abandoned as (
    delete from storage.objects o
    where o.bucket_id = 'imports' and o.created_at <= expire_organization_transfers.at - interval '1 day'
      and not exists (select 1 from public.organization_imports i
                      where i.file_path = o.name and i.status in ('queued', 'running'))
    returning o.version
  )
  select coalesce(array_agg(v.version) filter (where v.version is not null), '{}') into _versions
  from (select version from removed union all select version from abandoned) v;
  if cardinality(_versions) > 0 then
    perform private.enqueue_job('storage.remove-files',
                                jsonb_build_object('versions', to_jsonb(_versions)));
  end if;
  return cardinality(_versions);
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.organization_exports enable row level security;
alter table public.organization_imports enable row level security;

create policy "admins read their organisation's exports"
  on public.organization_exports for select to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

create policy "admins read their organisation's imports"
  on public.organization_imports for select to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- Exports are written by the server only; admins read (download) their organisation's.
create policy "admins read their organisation's export files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'exports'
    and (storage.foldername(name))[1] = (select private.caller_organization_id('admin')::text)
  );

-- Admins upload a ZIP to import into their organisation's folder (and may read it back).
create policy "admins upload import files to their organisation's folder"
  on storage.objects for insert to authenticated
  with check (
    bucket_id = 'imports'
    and (storage.foldername(name))[1] = (select private.caller_organization_id('admin')::text)
  );

create policy "admins read their organisation's import files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'imports'
    and (storage.foldername(name))[1] = (select private.caller_organization_id('admin')::text)
  );

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Starts an export of the caller's organisation (admins); one at a time per organisation.
create function public.start_organization_export(include_versions boolean default false)
returns public.organization_exports
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.transfer_admin('Only admins can export the organization');
  _export public.organization_exports;
begin
  -- One export at a time per organisation: concurrent calls take turns here.
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('organization export ' || _me.organization_id, 7305));
  if exists (select 1 from public.organization_exports e
             where e.organization_id = _me.organization_id and e.status in ('queued', 'running')) then
    raise exception 'An export is already being prepared';
  end if;
  insert into public.organization_exports (organization_id, requested_by, include_versions)
  values (_me.organization_id, _me.id, coalesce(include_versions, false))
  returning * into _export;
  perform private.enqueue_job('organization.export', jsonb_build_object('export_id', _export.id),
    _me.organization_id, 'export:' || _export.id, now(), 3);
  perform private.log_activity(_me.organization_id, 'organization.export_started', null, null,
    jsonb_build_object('include_versions', _export.include_versions));
  return _export;
end
$$;

-- Starts an import of a ZIP the caller (an admin) uploaded to `imports/{organization_id}/…`.
create function public.start_organization_import(file_path text)
returns public.organization_imports
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.transfer_admin('Only admins can import documents');
  _import public.organization_imports;
begin
  if file_path is null
     or (storage.foldername(file_path))[1] is distinct from _me.organization_id::text
     or not exists (select 1 from storage.objects o
                    where o.bucket_id = 'imports' and o.name = file_path) then
    raise exception 'The file to import has not been uploaded';
  end if;
  perform pg_catalog.pg_advisory_xact_lock(
    pg_catalog.hashtextextended('organization import ' || _me.organization_id, 7305));
  if exists (select 1 from public.organization_imports i
             where i.organization_id = _me.organization_id and i.status in ('queued', 'running')) then
    raise exception 'An import is already running';
  end if;
  insert into public.organization_imports (organization_id, requested_by, file_path)
  values (_me.organization_id, _me.id, file_path)
  returning * into _import;
  perform private.enqueue_job('organization.import', jsonb_build_object('import_id', _import.id),
    _me.organization_id, 'import:' || _import.id, now(), 3);
  perform private.log_activity(_me.organization_id, 'organization.import_started', null, null,
    '{}'::jsonb);
  return _import;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.organization_exports, public.organization_imports
  from public, anon, authenticated;
grant select on public.organization_exports, public.organization_imports to authenticated;
revoke all on function private.transfer_admin(text) from public, anon, authenticated;
revoke all on function private.finish_organization_import(uuid, jsonb)
  from public, anon, authenticated;
revoke all on function private.expire_organization_transfers(timestamptz)
  from public, anon, authenticated;
revoke all on function public.start_organization_export(boolean) from public, anon, authenticated;
revoke all on function public.start_organization_import(text) from public, anon, authenticated;
grant execute on function public.start_organization_export(boolean) to authenticated;
grant execute on function public.start_organization_import(text) to authenticated;

-- ============================================================================================
-- supabase/schemas/19_mail_worker.sql
-- ============================================================================================

-- The `mail-worker` edge function's steps (supabase/functions/mail-worker/, run by pg_cron
-- through pg_net on a hosted project, where no embedded server runs the jobs). The edge function
-- reaches the database through the REST API with the service-role key, so the steps it needs
-- are public functions, executable by service_role only. They are the steps the embedded server
-- takes too (the job queue's in 02_jobs.sql, the mail outcomes' in 05_mail.sql, the reminder
-- run's in 11_reminders.sql): the database decides what is due, who may take it and what an
-- outcome means; the code around it only writes the parts of a message and moves it to the SMTP
-- server.

-- ============================================================================================
-- Functions
-- ============================================================================================
-- The organisations whose reminder run is due at `now_at` (default: the database's clock).
create function public.mail_worker_due_reminder_runs(now_at timestamptz default null)
returns table (organization_id uuid, local_date date)
language sql
stable
security definer
set search_path = ''
as $$
  select r.organization_id, r.local_date
  from private.due_reminder_runs(coalesce(mail_worker_due_reminder_runs.now_at, now())) r
$$;

-- One organisation's reminder run (private.run_reminders: claimed once per organisation and
-- local date); the number of digests it recorded, 0 when the run was made already.
create function public.mail_worker_run_reminders(organization_id uuid, local_date date)
returns integer
language sql
security definer
set search_path = ''
as $$
  select private.run_reminders(mail_worker_run_reminders.organization_id,
                               mail_worker_run_reminders.local_date)
$$;

-- Claims the next due `mail.deliver` job for `lease_seconds` and answers it with its message,
-- or null when none is due. A job whose message is gone, sent or given up is finished here.
create function public.mail_worker_claim(
  runner text, lease_seconds integer, now_at timestamptz default null
)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  _now timestamptz := coalesce(mail_worker_claim.now_at, now());
  _job record;
  _message public.outbox_messages;
  _id text;
begin
  loop
    select * into _job
    from private.claim_job(_now, mail_worker_claim.lease_seconds, mail_worker_claim.runner,
                           array['mail.deliver']);
    if not found then
      return null;
    end if;
    _id := _job.payload ->> 'message_id';
    _message := null;
    if _id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      select * into _message from public.outbox_messages m where m.id = _id::uuid;
    end if;
    if _message.id is not null and _message.status not in ('sent', 'failed') then
      return jsonb_build_object(
        'job_id', _job.id, 'attempt', _job.attempts, 'max_attempts', _job.max_attempts,
        'message', jsonb_build_object(
          'id', _message.id, 'organization_id', _message.organization_id,
          'kind', _message.kind, 'created_by', _message.created_by,
          'recipients', to_jsonb(_message.recipients), 'subject', _message.subject,
          'content', _message.content, 'text_body', _message.text_body,
          'html_body', _message.html_body, 'links', _message.links,
          'attachments', _message.attachments, 'status', _message.status,
          'attempts', _message.attempts));
    end if;
    perform private.finish_job(_job.id, mail_worker_claim.runner, _now);
  end loop;
end
$$;

-- Records how the delivery of a claimed job's message went, and moves the job on, in one
-- transaction: `sent` and `outbox` finish it; `retry` records the error and retries the job
-- after `retry_seconds` (after its last attempt the message is marked failed); `failed` (the
-- server refused it for good, or it could not be written) marks the message failed and
-- finishes the job. The parts written for the message are kept first. False, and nothing
-- recorded, when `runner` no longer holds the job (its lease passed and another took it).
create function public.mail_worker_record(
  job_id bigint,
  runner text,
  outcome text,
  error text default null,
  text_body text default null,
  html_body text default null,
  links jsonb default null,
  retry_seconds integer default 30,
  now_at timestamptz default null
)
returns boolean
language plpgsql
security definer
set search_path = ''
as $$
declare
  _now timestamptz := coalesce(mail_worker_record.now_at, now());
  _job private.jobs;
  _message_id uuid;
begin
  select * into _job from private.jobs j
  where j.id = mail_worker_record.job_id and j.kind = 'mail.deliver'
    and j.locked_by = mail_worker_record.runner and j.finished_at is null and j.failed_at is null
  for update;
  if not found then
    return false;
  end if;
  _message_id := (_job.payload ->> 'message_id')::uuid;
  if mail_worker_record.text_body is not null and mail_worker_record.html_body is not null then
    perform private.save_mail_parts(_message_id, mail_worker_record.text_body,
                                    mail_worker_record.html_body, mail_worker_record.links);
  end if;
  case mail_worker_record.outcome
    when 'sent', 'outbox' then
      perform private.record_mail_outcome(_message_id, mail_worker_record.outcome, null, _now);
      perform private.finish_job(_job.id, mail_worker_record.runner, _now);
    when 'retry' then
      perform private.record_mail_outcome(
        _message_id,
        case when _job.attempts >= _job.max_attempts then 'failed' else 'queued' end,
        mail_worker_record.error, _now);
      perform private.fail_job(_job.id, mail_worker_record.runner, _now,
                               coalesce(mail_worker_record.error, 'delivery failed'),
                               greatest(coalesce(mail_worker_record.retry_seconds, 30), 1));
    when 'failed' then
      perform private.record_mail_outcome(_message_id, 'failed', mail_worker_record.error, _now);
      perform private.finish_job(_job.id, mail_worker_record.runner, _now);
    else
      raise exception 'Unknown outcome: %', left(mail_worker_record.outcome, 20)
        using errcode = '22023';
  end case;
  return true;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function public.mail_worker_due_reminder_runs(timestamptz) from public, anon, authenticated;
revoke all on function public.mail_worker_run_reminders(uuid, date) from public, anon, authenticated;
revoke all on function public.mail_worker_claim(text, integer, timestamptz) from public, anon, authenticated;
revoke all on function public.mail_worker_record(bigint, text, text, text, text, text, jsonb, integer, timestamptz)
  from public, anon, authenticated;
grant execute on function public.mail_worker_due_reminder_runs(timestamptz) to service_role;
grant execute on function public.mail_worker_run_reminders(uuid, date) to service_role;
grant execute on function public.mail_worker_claim(text, integer, timestamptz) to service_role;
grant execute on function public.mail_worker_record(bigint, text, text, text, text, text, jsonb, integer, timestamptz)
  to service_role;
