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
