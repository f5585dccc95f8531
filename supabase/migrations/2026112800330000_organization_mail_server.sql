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

-- A test e-mail is a message of its own kind: sent once (never retried), to the admin who
-- asked, so that the admin reads the SMTP server's answer on it.
alter table public.outbox_messages drop constraint outbox_messages_kind_check;
alter table public.outbox_messages add constraint outbox_messages_kind_check
  check (kind in ('documents', 'invitation', 'reminders', 'document_request', 'test'));

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.organization_mail_servers enable row level security;

create policy "admins read their organisation's mail server"
  on public.organization_mail_servers for select to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- The second-factor rule of 20_second_factor.sql.
create policy "second factor proved when enrolled or required"
  on public.organization_mail_servers as restrictive for all to authenticated
  using ((select private.second_factor_checked()))
  with check ((select private.second_factor_checked()));

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

-- As in the baseline, with the organisation's own server counted as SMTP.
create or replace function private.queue_mail(
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

-- As in the baseline, with the organisation's own server counted as SMTP.
create or replace function public.retry_outbox_message(message_id uuid)
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

-- As in …0501_mail_limits, with the organisation's own server counted as SMTP.
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
  if private.organization_delivery(_row.organization_id) = 'smtp' then
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

-- As in …2400_organization_settings: 'smtp' or 'outbox'. A signed-in member learns how their
-- own organisation's e-mail goes out (its own server counts); anyone else, the installation's.
-- Asked without the second-factor check: it tells nothing but whether mail is sent.
create or replace function public.mail_delivery()
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

-- As in …2400_organization_settings, with the organisation's own server counted as e-mail set
-- up.
create or replace function public.onboarding_status()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _state private.organization_onboarding;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Only admins can see the first-run checklist';
  end if;
  select * into _state from private.organization_onboarding o
  where o.organization_id = _me.organization_id;
  return jsonb_build_object(
    'team_invited',
      exists (select 1 from public.user_invitations i where i.organization_id = _me.organization_id)
      or (select count(*) from public.user_profiles p
          where p.organization_id = _me.organization_id) > 1,
    'categories_reviewed', _state.categories_reviewed_at is not null,
    'email_ready', private.organization_delivery(_me.organization_id) = 'smtp',
    'documents_uploaded',
      exists (select 1 from public.documents d where d.organization_id = _me.organization_id),
    'dismissed', _state.dismissed_at is not null);
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
