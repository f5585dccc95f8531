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
    constraint user_invitations_role_check check (role in ('viewer', 'user', 'admin')),
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
  if _role not in ('viewer', 'user', 'admin') then
    raise exception 'Role must be viewer, user or admin';
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
-- An address e-mailed an invitation (queued or sent) from this organisation within
-- `invitation_resend_interval` is not e-mailed again: the invitation is replaced and its new
-- link returned, with `mail_id` the earlier message and `mail_status` `recently_sent`.
-- Concurrent invitations of one address wait for each other on the invitation's row
-- (create_invitation's upsert), so only one of them e-mails it.
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
