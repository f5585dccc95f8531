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
--
-- It also holds how much e-mail people may cause (20261128000501_mail_limits): recipients an
-- hour for the installation and for each organisation, lower in an organisation's first days,
-- and how long before an invitation is e-mailed to the same address again.
create table private.mail_settings (
  id boolean primary key default true constraint mail_settings_one_row check (id),
  delivery text not null default 'outbox'
    constraint mail_settings_delivery_check check (delivery in ('smtp', 'outbox')),
  updated_at timestamptz not null default now(),
  emails_per_hour integer not null default 500
    constraint mail_settings_emails_per_hour_check check (emails_per_hour >= 1),
  organization_emails_per_hour integer not null default 100
    constraint mail_settings_organization_emails_per_hour_check
      check (organization_emails_per_hour >= 1),
  new_organization_emails_per_hour integer not null default 20
    constraint mail_settings_new_organization_emails_per_hour_check
      check (new_organization_emails_per_hour >= 1),
  new_organization_period interval not null default interval '7 days'
    constraint mail_settings_new_organization_period_check
      check (new_organization_period >= interval '0'),
  invitation_resend_interval interval not null default interval '1 hour'
    constraint mail_settings_invitation_resend_interval_check
      check (invitation_resend_interval >= interval '0')
);
insert into private.mail_settings (delivery) values ('outbox');

create table public.outbox_messages (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- What the message is: the documents a member sent, an invitation, a reminder digest, a
  -- request for a document (22_document_requests.sql), a test e-mail (below).
  kind text not null
    constraint outbox_messages_kind_check
      check (kind in ('documents', 'invitation', 'reminders', 'document_request', 'test')),
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

-- Documents e-mailed as links (issue 22, R14). The delivery job (server/mail/deliver-job.ts)
-- signs each link as the message's sender, and a link reads the file as its signer under
-- row-level security, where a second factor may be asked of them: an admin of an organisation
-- that requires one, or anyone who enrolled one. The message therefore records the assurance
-- level of the session that sent it (`content.sender_aal`, from the request's claims when the
-- message is written), and the links carry it. Whatever the caller put into the content under
-- that key is replaced.
create function private.record_sender_assurance()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new.kind = 'documents' then
    new.content := coalesce(new.content, '{}'::jsonb)
      || jsonb_build_object('sender_aal', coalesce((select auth.jwt()) ->> 'aal', 'aal1'));
  end if;
  return new;
end
$$;

create trigger outbox_messages_record_sender_assurance
  before insert on public.outbox_messages
  for each row execute function private.record_sender_assurance();

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
  values (queue_mail.organization_id, queue_mail.kind, queue_mail.created_by,
          queue_mail.recipients, queue_mail.subject, queue_mail.content, queue_mail.attachments,
          case private.organization_delivery(queue_mail.organization_id)
            when 'smtp' then 'queued' else 'outbox' end,
          queue_mail.dedupe_key)
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
-- SMTP: kept in the Outbox). Once an invitation or a request for a document is sent, its link
-- is the recipient's alone: the token leaves the stored message (tokens are otherwise kept only
-- as hashes).
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
    returning case when m.kind in ('invitation', 'document_request')
                   then m.content ->> 'token' end into _token;
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
-- whichever function adds it: a message people asked for (documents, an invitation, a request
-- for a document, also one the reminder run asks for) that SMTP will deliver, and the auth
-- service's e-mails while SMTP is configured.
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
      and m.status = 'queued' and m.kind in ('documents', 'invitation', 'document_request');
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

-- Whether a message names a document of one of `categories`: the documents it carries or links, or the
-- documents a reminder digest lists (issue 23). The Outbox policy asks it only when some
-- category is hidden from the admin reading.
create function private.message_names_documents_in(attachments jsonb, content jsonb, categories text[])
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (
    select 1 from public.documents d
     where d.category = any (categories)
       and d.id in (select (x ->> 'document_id')::uuid
                      from jsonb_array_elements(
                             case when jsonb_typeof(attachments) = 'array' then attachments
                                  else '[]'::jsonb end) x
                     where x ->> 'document_id' ~ '^[0-9a-fA-F-]{36}$'
                    union all
                    select (x ->> 'id')::uuid
                      from jsonb_array_elements(
                             case when jsonb_typeof(content -> 'items') = 'array'
                                  then content -> 'items' else '[]'::jsonb end) x
                     where x ->> 'id' ~ '^[0-9a-fA-F-]{36}$'));
end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table private.mail_settings enable row level security;
alter table public.outbox_messages enable row level security;
-- None on the allowances: only the functions above read and write them.
alter table private.mail_allowances enable row level security;

-- But not a message about a document the admin may not view (its names, and the links a
-- member sent, which open as that member).
create policy "admins read their organisation's outbox"
  on public.outbox_messages for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('admin'))
    and ((select private.caller_hidden_categories()) = '{}'
         or not private.message_names_documents_in(attachments, content,
                                                    (select private.caller_hidden_categories())))
  );

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

-- A member (not a Viewer) e-mails documents of their organisation that they may view, as
-- attachments or as signed links (valid for the installation's longest signed link, and only
-- while the sender stays an active member who may view them). Replaces the specification's simulated sending. Trashed documents are not found.
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
  -- A Viewer changes nothing and sends nothing through the installation's mail.
  if private.role_rank(_me.role) < private.role_rank('user') then
    raise exception 'Viewers cannot send documents by e-mail' using errcode = '42501';
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
    and d.deleted_at is null
    -- Only what the sender may view (issue 23): any other answers as a document not found.
    and private.member_may_view_document(_me.id, d.id);
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
-- The first document of a message of documents that its sender may no longer view, by name,
-- else null (issue 23): such a message does not go, and is not sent again.
create function private.document_its_sender_may_not_view(message public.outbox_messages)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _name text;
begin
  if message.kind <> 'documents' or message.created_by is null then
    return null;
  end if;
  select a.value ->> 'name' into _name
    from jsonb_array_elements(message.attachments) with ordinality a
   where not coalesce(private.member_may_view_document(message.created_by,
                                                       (a.value ->> 'document_id')::uuid), false)
   order by a.ordinality
   limit 1;
  return _name;
end
$$;

-- The e-mails of documents still waiting to go (queued, or kept in the Outbox) of the
-- organisation, of one sender or naming one document, fail when their sender may no longer
-- view one of their documents: removed from a group, a category restricted, made a Viewer, a
-- document moved (the access-change triggers of 21_share_links.sql, at commit).
create function private.withdraw_mail_without_access(
  organization uuid,
  sender uuid default null,
  document uuid default null
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _message public.outbox_messages;
  _name text;
begin
  for _message in
    select * from public.outbox_messages m
     where m.organization_id = withdraw_mail_without_access.organization
       and m.kind = 'documents' and m.status in ('queued', 'outbox')
       and (withdraw_mail_without_access.sender is null
            or m.created_by = withdraw_mail_without_access.sender)
       and (withdraw_mail_without_access.document is null
            or m.attachments @> jsonb_build_array(
                 jsonb_build_object('document_id', withdraw_mail_without_access.document)))
     for update
  loop
    _name := private.document_its_sender_may_not_view(_message);
    if _name is not null then
      perform private.record_mail_outcome(_message.id, 'failed',
        'Not sent: its sender may no longer view ' || _name, now());
    end if;
  end loop;
end
$$;

create function public.retry_outbox_message(message_id uuid)
returns public.mail_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _message public.outbox_messages;
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
  if private.document_its_sender_may_not_view(_message) is not null then
    raise exception 'Its sender may no longer view %',
      private.document_its_sender_may_not_view(_message);
  end if;
  if private.organization_delivery(_me.organization_id) <> 'smtp' then
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
revoke all on function private.document_its_sender_may_not_view(public.outbox_messages)
  from public, anon, authenticated;
revoke all on function private.withdraw_mail_without_access(uuid, uuid, uuid)
  from public, anon, authenticated;
revoke all on function private.message_names_documents_in(jsonb, jsonb, text[])
  from public, anon, authenticated;
-- The Outbox policy calls it as the signed-in role.
grant execute on function private.message_names_documents_in(jsonb, jsonb, text[]) to authenticated;
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
revoke all on private.mail_allowances from public, anon, authenticated, service_role;
revoke all on function private.minutes_text(double precision) from public, anon, authenticated;
revoke all on function private.take_from_mail_allowance(text, uuid, integer, integer)
  from public, anon, authenticated;
revoke all on function private.take_mail_allowance(uuid, integer) from public, anon, authenticated;
revoke all on function private.take_mail_allowance_for_job() from public, anon, authenticated;
revoke all on function private.record_sender_assurance() from public, anon, authenticated;

-- ============================================================================================
-- Issue 24: an organisation's own sender
-- ============================================================================================
-- An organisation's own sender (issue 24, item 3): its SMTP server, user, password and From
-- address, set by its admins in Settings › E-mail. When set, the organisation's messages
-- (invitations, documents, reminders, requests for documents, test e-mails) go through it;
-- otherwise through the installation's SMTP server, or stay in the Outbox when there is none.
--
-- The password is encrypted (AES-256-GCM) by the `organization-mail-server` edge function
-- before it reaches the database, and decrypted only by the server's delivery job; the column
-- is readable by neither `anon` nor `authenticated`, and the app learns only `has_password`.
-- Where the server may connect (no loopback, private, link-local or metadata addresses; the
-- usual SMTP ports) is checked by the function when the settings are saved and by the delivery
-- job each time it connects (server/mail/organization-sender.ts).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.organization_mail_servers (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  -- A host name or an IP address, without scheme or port.
  host text not null
    constraint organization_mail_servers_host_check check (
      char_length(host) <= 253
      and host ~ '^([A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$'
    ),
  port integer not null
    constraint organization_mail_servers_port_check check (port between 1 and 65535),
  username text
    constraint organization_mail_servers_username_check check (
      char_length(username) between 1 and 320 and username !~ '[[:cntrl:]]'
    ),
  -- `v1.{nonce}.{sealed}` (supabase/functions/oauth/crypto.ts), bound to the organisation.
  -- Readable by the service role only (see the grants).
  password_ciphertext text
    constraint organization_mail_servers_password_length check (
      char_length(password_ciphertext) <= 4000
    ),
  has_password boolean generated always as (password_ciphertext is not null) stored,
  from_address text not null
    constraint organization_mail_servers_from_address_check check (
      private.is_email_address(from_address)
    ),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create trigger organization_mail_servers_touch_updated_at
  before update on public.organization_mail_servers
  for each row execute function private.touch_updated_at();

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.organization_mail_servers enable row level security;

create policy "admins read their organisation's mail server"
  on public.organization_mail_servers for select to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- Written by the edge function with the service role (store_organization_mail_server), after
-- the database said the caller may (authorize_organization_mail_server); removed by
-- remove_organization_mail_server. No insert, update or delete policies.

-- ============================================================================================
-- Functions
-- ============================================================================================
-- How an organisation's messages go out: 'smtp' when it has its own server or the installation
-- has one, 'outbox' otherwise.
create function private.organization_delivery(organization_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when exists (select 1 from public.organization_mail_servers m
                 where m.organization_id = organization_delivery.organization_id)
      then 'smtp'
    else (select s.delivery from private.mail_settings s)
  end
$$;





-- The caller's organisation, when the caller may set its mail server (an active admin or
-- master admin); raises otherwise. The edge function asks this as the caller before it stores
-- anything with the service role.
create function public.authorize_organization_mail_server()
returns uuid
language plpgsql
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
    raise exception 'Only admins can set up the organization''s e-mail';
  end if;
  perform private.require_second_factor(_me.id);
  return _me.organization_id;
end
$$;

-- Stores an organisation's mail server, as the edge function checked and encrypted it (service
-- role only). A null password_ciphertext keeps the stored password, unless there is no user
-- name any more: a password without a user is never sent.
create function public.store_organization_mail_server(
  organization_id uuid,
  host text,
  port integer,
  username text,
  password_ciphertext text,
  from_address text
)
returns void
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
begin
  insert into public.organization_mail_servers as m
    (organization_id, host, port, username, password_ciphertext, from_address)
  values (store_organization_mail_server.organization_id, store_organization_mail_server.host,
          store_organization_mail_server.port, store_organization_mail_server.username,
          case when store_organization_mail_server.username is not null
               then store_organization_mail_server.password_ciphertext end,
          store_organization_mail_server.from_address)
  on conflict (organization_id) do update
    set host = excluded.host,
        port = excluded.port,
        username = excluded.username,
        password_ciphertext = case
          when excluded.username is null then null
          else coalesce(excluded.password_ciphertext, m.password_ciphertext) end,
        from_address = excluded.from_address;
end
$$;

-- Admins stop using their own server: the organisation's mail goes through the installation's
-- again.
create function public.remove_organization_mail_server()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := public.authorize_organization_mail_server();
begin
  delete from public.organization_mail_servers m where m.organization_id = _organization_id;
end
$$;

-- Admins send a test e-mail to their own address through the organisation's server (or the
-- installation's when it has none), at most 5 an hour per organisation. Returns the message,
-- whose status and last_error tell what the SMTP server answered: it is tried once.
create function public.send_test_email()
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := public.authorize_organization_mail_server();
  _me public.user_profiles := private.caller_profile();
  _server public.organization_mail_servers;
  _organization_name text;
  _id uuid;
begin
  if private.organization_delivery(_organization_id) <> 'smtp' then
    raise exception 'E-mail is not set up: enter your mail server first';
  end if;
  if not private.is_email_address(_me.email) then
    raise exception 'Your account has no e-mail address to send the test to';
  end if;
  -- One organisation at a time counts its test e-mails.
  perform 1 from public.organizations o where o.id = _organization_id for update;
  if (select count(*) from public.outbox_messages m
      where m.organization_id = _organization_id and m.kind = 'test'
        and m.created_at > now() - interval '1 hour') >= 5 then
    raise exception using errcode = 'PT429',
      message = 'At most 5 test e-mails can be sent in an hour. Please try again later.';
  end if;
  select * into _server from public.organization_mail_servers m
  where m.organization_id = _organization_id;
  select o.name into _organization_name from public.organizations o where o.id = _organization_id;
  insert into public.outbox_messages as m
    (organization_id, kind, created_by, recipients, subject, content, status)
  values (_organization_id, 'test', _me.id, array[_me.email],
          format('Test e-mail from %s', _organization_name),
          jsonb_build_object(
            'organization_name', _organization_name,
            'server', case when _server.host is null then 'installation'
                           else format('%s:%s', _server.host, _server.port) end),
          'queued')
  returning m.id into _id;
  perform private.enqueue_job('mail.deliver', jsonb_build_object('message_id', _id),
                              _organization_id, 'mail:' || _id, now(), 1);
  return _id;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.organization_mail_servers from anon, authenticated;
-- Every column but password_ciphertext.
grant select (organization_id, host, port, username, has_password, from_address, created_at,
  updated_at) on public.organization_mail_servers to authenticated;

revoke all on function private.organization_delivery(uuid) from public, anon, authenticated;
revoke all on function public.authorize_organization_mail_server()
  from public, anon, authenticated;
revoke all on function public.store_organization_mail_server(uuid, text, integer, text, text, text)
  from public, anon, authenticated;
revoke all on function public.remove_organization_mail_server() from public, anon, authenticated;
revoke all on function public.send_test_email() from public, anon, authenticated;
grant execute on function public.authorize_organization_mail_server() to authenticated;
grant execute on function public.store_organization_mail_server(uuid, text, integer, text, text, text)
  to service_role;
grant execute on function public.remove_organization_mail_server() to authenticated;
grant execute on function public.send_test_email() to authenticated;

-- ============================================================================================
-- Issue 24: whether e-mail is delivered
-- ============================================================================================
-- Whether this installation delivers e-mail (`smtp`) or keeps it in the Outbox (`outbox`), so
-- that no screen says "sent" for a message that stays here (the Reminders page, the e-mail
-- dialog, the first-run checklist) and the forgot-password page can say that no link will
-- come. Anyone may ask, as anyone may read GoTrue's /settings: it tells nothing of an
-- organisation.
create function public.mail_delivery()
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(
    (select private.organization_delivery(p.organization_id)
     from public.user_profiles p
     where p.id = (select auth.uid()) and p.is_active and p.organization_id is not null),
    (select s.delivery from private.mail_settings s))
$$;

revoke all on function public.mail_delivery() from public, anon, authenticated;
grant execute on function public.mail_delivery() to anon, authenticated;
