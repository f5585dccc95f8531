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

revoke all on function public.send_password_reset(uuid) from public, anon, authenticated;
grant execute on function public.send_password_reset(uuid) to authenticated;
