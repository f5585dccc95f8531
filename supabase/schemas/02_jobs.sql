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
