-- No relay (issue 22, R8): sign-up is open and organisations are free, so anyone can become an
-- admin and make the installation e-mail whomever they like with their own words in it
-- (invitations carry the organisation's and the invitee's names, document e-mails a subject and
-- a message). Every e-mail that people cause and that SMTP will deliver now takes its
-- recipients from two allowances kept here, in the database, so that they hold for every
-- server process sharing it:
--
-- - the installation's: `[auth.rate_limit] email_sent` recipients an hour (GoTrue's setting of
--   the same name counts the whole project's e-mails too), so that the SMTP account is never
--   spent faster than that;
-- - the organisation's: steward.toml `[mail] per_organization_per_hour`, lower
--   (`new_organization_per_hour`) during an organisation's first days
--   (`new_organization_period`), so that no organisation spends the installation's allowance.
--
-- Each allowance is a token bucket: it holds up to its hourly limit and refills at that limit
-- an hour, so a church may invite its staff at once and then go on at the steady rate. What
-- counts: invitations, document e-mails, a failed or Outbox message sent again, the reset links
-- admins send, and the auth service's own e-mails (password recovery, e-mail change, sign-up
-- confirmation; those count for the installation only, since an outsider can ask for them for
-- any address). Reminder digests do not count: the daily run makes at most one per member and
-- day, and must not be refused for what others sent. Messages kept in the Outbox (no SMTP) are
-- not e-mailed and do not count either.
--
-- Past an allowance the whole call is refused with SQLSTATE PT429, which PostgREST (and the
-- embedded server) answer as HTTP 429 with the message below; nothing is recorded. The auth
-- service answers GoTrue's 429 `over_email_send_rate_limit` instead.
--
-- An invitation e-mailed to an address is not e-mailed to it again within
-- `[mail] invitation_resend_interval` (1 hour): inviting again still replaces the invitation and
-- shows its new link, which the admin passes on, and `mail_status` says `recently_sent`.

-- ============================================================================================
-- Tables
-- ============================================================================================
-- The limits, written by the embedded server at start-up from its configuration (see
-- server/mail/settings-row.ts); on a hosted project, set them with SQL.
alter table private.mail_settings
  add column emails_per_hour integer not null default 500
    constraint mail_settings_emails_per_hour_check check (emails_per_hour >= 1),
  add column organization_emails_per_hour integer not null default 100
    constraint mail_settings_organization_emails_per_hour_check
      check (organization_emails_per_hour >= 1),
  add column new_organization_emails_per_hour integer not null default 20
    constraint mail_settings_new_organization_emails_per_hour_check
      check (new_organization_emails_per_hour >= 1),
  add column new_organization_period interval not null default interval '7 days'
    constraint mail_settings_new_organization_period_check
      check (new_organization_period >= interval '0'),
  add column invitation_resend_interval interval not null default interval '1 hour'
    constraint mail_settings_invitation_resend_interval_check
      check (invitation_resend_interval >= interval '0');

-- One row per allowance: the installation's, and one per organisation that has sent e-mail.
create table private.mail_allowances (
  -- `installation`, or the organisation's id.
  scope text primary key,
  organization_id uuid unique references public.organizations (id) on delete cascade,
  -- Recipients it may still send to, as of `refilled_at`.
  tokens double precision not null,
  refilled_at timestamptz not null,
  constraint mail_allowances_scope_check
    check (scope = coalesce(organization_id::text, 'installation'))
);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- `n minutes` for a wait of `seconds` (at least a minute).
create function private.minutes_text(seconds double precision)
returns text
language sql
immutable
set search_path = ''
as $$
  select case when ceil(seconds / 60) <= 1 then '1 minute'
              else ceil(seconds / 60)::bigint || ' minutes' end
$$;

-- Takes `amount` recipients from the allowance `scope`, which holds up to `per_hour` and refills
-- at `per_hour` an hour. Answers 0 when they were taken; otherwise the seconds until they would
-- be there (nothing is taken), or null when `amount` is more than the allowance ever holds.
-- The row stays locked until the caller's transaction ends, so concurrent senders take turns.
create function private.take_from_mail_allowance(
  scope text, organization_id uuid, per_hour integer, amount integer
)
returns double precision
language plpgsql
set search_path = ''
as $$
declare
  _tokens double precision;
begin
  if take_from_mail_allowance.amount > take_from_mail_allowance.per_hour then
    return null;
  end if;
  insert into private.mail_allowances as a (scope, organization_id, tokens, refilled_at)
  values (take_from_mail_allowance.scope, take_from_mail_allowance.organization_id,
          take_from_mail_allowance.per_hour, clock_timestamp())
  on conflict on constraint mail_allowances_pkey do update
    set tokens = least(excluded.tokens,
                       a.tokens + greatest(0, extract(epoch from excluded.refilled_at - a.refilled_at))
                                  * excluded.tokens / 3600),
        refilled_at = greatest(a.refilled_at, excluded.refilled_at)
  returning a.tokens into _tokens;
  if _tokens < take_from_mail_allowance.amount then
    return (take_from_mail_allowance.amount - _tokens) * 3600 / take_from_mail_allowance.per_hour;
  end if;
  update private.mail_allowances a set tokens = a.tokens - take_from_mail_allowance.amount
  where a.scope = take_from_mail_allowance.scope;
  return 0;
end
$$;

-- Takes `recipients` from the installation's allowance and, for an organisation's e-mail, from
-- the organisation's; raises PT429 with a message for the sender when either has too few.
create function private.take_mail_allowance(organization_id uuid, recipients integer)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _settings private.mail_settings;
  _created_at timestamptz;
  _new boolean;
  _per_hour integer;
  _wait double precision;
begin
  if coalesce(take_mail_allowance.recipients, 0) < 1 then
    return;
  end if;
  select * into _settings from private.mail_settings;

  -- The installation first, then the organisation: every sender locks the two rows in this
  -- order, so two senders never wait for each other's second row.
  _wait := private.take_from_mail_allowance('installation', null, _settings.emails_per_hour,
                                            take_mail_allowance.recipients);
  if _wait is null then
    raise exception using errcode = 'PT429', message = format(
      'This installation may e-mail at most %s recipients an hour. Please choose fewer recipients.',
      _settings.emails_per_hour);
  elsif _wait > 0 then
    raise exception using errcode = 'PT429', message = format(
      'Too many e-mails are being sent from this installation. Please try again in %s.',
      private.minutes_text(_wait));
  end if;
  if take_mail_allowance.organization_id is null then
    return;
  end if;

  select o.created_at into _created_at
  from public.organizations o where o.id = take_mail_allowance.organization_id;
  _new := _created_at > now() - _settings.new_organization_period;
  _per_hour := case when _new
                    then least(_settings.new_organization_emails_per_hour,
                               _settings.organization_emails_per_hour)
                    else _settings.organization_emails_per_hour end;
  _wait := private.take_from_mail_allowance(take_mail_allowance.organization_id::text,
                                            take_mail_allowance.organization_id, _per_hour,
                                            take_mail_allowance.recipients);
  if _wait is null then
    raise exception using errcode = 'PT429', message = format(
      'Your organization may e-mail at most %s recipients an hour%s. Please choose fewer recipients.',
      _per_hour, case when _new then ' during its first days' else '' end);
  elsif _wait > 0 then
    raise exception using errcode = 'PT429', message = format(
      'Your organization has reached its limit of %s e-mail recipients an hour%s. Please try again in %s.',
      _per_hour, case when _new then ' (a new organization''s limit, for its first days)' else '' end,
      private.minutes_text(_wait));
  end if;
end
$$;

-- Every job that will e-mail someone takes its recipients from the allowances as it is added,
-- whichever function adds it: a message people asked for (documents, an invitation) that SMTP
-- will deliver, and the auth service's e-mails while SMTP is configured.
create function private.take_mail_allowance_for_job()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid;
  _recipients integer;
begin
  if new.kind = 'mail.deliver' then
    if coalesce(new.payload ->> 'message_id', '')
       !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
      return null;
    end if;
    select m.organization_id, cardinality(m.recipients) into _organization_id, _recipients
    from public.outbox_messages m
    where m.id = (new.payload ->> 'message_id')::uuid
      and m.status = 'queued' and m.kind in ('documents', 'invitation');
    if not found then
      return null;
    end if;
  elsif (select s.delivery from private.mail_settings s) = 'smtp' then
    _organization_id := new.organization_id;
    _recipients := 1;
  else
    return null;
  end if;
  perform private.take_mail_allowance(_organization_id, _recipients);
  return null;
end
$$;

create trigger jobs_take_mail_allowance
  after insert on private.jobs
  for each row
  when (new.kind in ('mail.deliver', 'auth.mail'))
  execute function private.take_mail_allowance_for_job();

-- ============================================================================================
-- Policies
-- ============================================================================================
-- None: only the functions above read and write the allowances.
alter table private.mail_allowances enable row level security;

-- ============================================================================================
-- Functions
-- ============================================================================================
-- As in …0500_mail, and an address e-mailed an invitation (queued or sent) from this
-- organisation within `invitation_resend_interval` is not e-mailed again: the invitation is
-- replaced as before and its new link returned, with `mail_id` the earlier message and
-- `mail_status` `recently_sent`. Concurrent invitations of one address wait for each other on
-- the invitation's row (create_invitation's upsert), so only one of them e-mails it.
create or replace function public.invite_user_by_email(email text, role text, full_name text)
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
  _settings private.mail_settings;
  _row public.user_invitations;
  _organization_name text;
  _recent uuid;
  _mail_id uuid;
begin
  select * into _settings from private.mail_settings;
  select * into _row from public.user_invitations i where i.id = _invitation.id;
  if _settings.delivery = 'smtp' then
    select m.id into _recent
    from public.outbox_messages m
    where m.organization_id = _row.organization_id and m.kind = 'invitation'
      and m.recipients = array[_row.email] and m.status in ('queued', 'sent')
      and m.created_at > now() - _settings.invitation_resend_interval
    order by m.created_at desc
    limit 1;
    if _recent is not null then
      return (_invitation.id, _invitation.email, _invitation.token, _recent, 'recently_sent')
        ::public.invite_by_email_result;
    end if;
  end if;

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

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on private.mail_allowances from public, anon, authenticated, service_role;
revoke all on function private.minutes_text(double precision) from public, anon, authenticated;
revoke all on function private.take_from_mail_allowance(text, uuid, integer, integer)
  from public, anon, authenticated;
revoke all on function private.take_mail_allowance(uuid, integer) from public, anon, authenticated;
revoke all on function private.take_mail_allowance_for_job() from public, anon, authenticated;
