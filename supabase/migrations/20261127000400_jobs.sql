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

-- Tables ----------------------------------------------------------------------------------------

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

-- Indexes ---------------------------------------------------------------------------------------

create index jobs_due_idx on private.jobs (run_after, id)
  where finished_at is null and failed_at is null;
create unique index jobs_pending_dedupe_key_idx on private.jobs (dedupe_key)
  where dedupe_key is not null and finished_at is null and failed_at is null;
create index jobs_organization_id_idx on private.jobs (organization_id);

-- Functions -------------------------------------------------------------------------------------

-- Adds a job, or does nothing when a pending job with the same dedupe key exists. Callable from
-- triggers and SECURITY DEFINER functions of later migrations; not granted to any API role.
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

-- Policies --------------------------------------------------------------------------------------

-- None: only the server, as the owner, reads and writes these tables.
alter table private.jobs enable row level security;
alter table private.job_turns enable row level security;
alter table private.schedules enable row level security;

-- Grants ----------------------------------------------------------------------------------------

revoke all on private.jobs, private.job_turns, private.schedules from public, anon, authenticated;
revoke all on sequence private.job_turn_seq from public, anon, authenticated;
revoke all on function private.enqueue_job(text, jsonb, uuid, text, timestamptz, integer)
  from public, anon, authenticated;
