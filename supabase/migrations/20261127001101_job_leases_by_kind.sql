-- Each job is leased for its own kind's time limit (the export's half hour need not hold up an
-- e-mail whose runner died): private.claim_job (…001100) takes one lease per kind. The form with
-- a single lease, which the mail-worker edge function calls, leases every kind alike through it.

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

create or replace function private.claim_job(now_at timestamptz, lease_seconds double precision, runner text, kinds text[])
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

revoke all on function private.claim_job(timestamptz, jsonb, text, text[]) from public, anon, authenticated;
