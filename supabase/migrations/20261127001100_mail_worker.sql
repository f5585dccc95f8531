-- The job queue's steps and the mail delivery's outcomes as SQL functions, so that the embedded
-- server (server/jobs/, server/mail/) and the `mail-worker` edge function of a hosted project
-- (supabase/functions/mail-worker/, run by pg_cron through pg_net) take the same steps: the
-- database decides what is due, who may take it and what an outcome means; the code around it
-- only writes the parts of a message and moves it to the SMTP server.
--
-- The edge function reaches the database through the REST API with the service-role key, so
-- the steps it needs are also public functions, executable by service_role only.

-- ============================================================================================
-- The job queue (20261127000400_jobs.sql)
-- ============================================================================================

-- Claims the next due job of `kinds` for `lease_seconds` at `now_at`: from the lane
-- (organisation) served least recently, then the oldest. `skip locked` lets several runners
-- claim at once without waiting for each other or taking the same job.
create function private.claim_job(now_at timestamptz, lease_seconds double precision, runner text, kinds text[])
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
      locked_until = claim_job.now_at + make_interval(secs => claim_job.lease_seconds),
      locked_by = claim_job.runner
  from next
  where j.id = next.id
  returning j.id, j.kind, j.payload, j.organization_id, j.attempts, j.max_attempts
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
-- Mail delivery (20261127000500_mail.sql)
-- ============================================================================================

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
-- The mail-worker edge function's steps (service_role only)
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
revoke all on function private.claim_job(timestamptz, double precision, text, text[]) from public, anon, authenticated;
revoke all on function private.finish_job(bigint, text, timestamptz) from public, anon, authenticated;
revoke all on function private.fail_job(bigint, text, timestamptz, text, double precision)
  from public, anon, authenticated;
revoke all on function private.save_mail_parts(uuid, text, text, jsonb) from public, anon, authenticated;
revoke all on function private.record_mail_outcome(uuid, text, text, timestamptz)
  from public, anon, authenticated;

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
