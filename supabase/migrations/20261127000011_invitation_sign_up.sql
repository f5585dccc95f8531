-- Invitation-only sign-up: when an installation closes sign-up (`[auth] enable_signup = false`),
-- the embedded auth service still creates the account of someone holding a valid invitation,
-- for the e-mail address the invitation was sent to. It asks this function, as the database
-- owner; no API role may call it, and it reads nothing an API role could not already learn with
-- the token from get_invitation.
--
-- Hosted Supabase closes sign-up in GoTrue itself, which knows nothing of invitations; there,
-- keep sign-up open or create invited accounts with the admin API.

-- ============================================================================================
-- Functions
-- ============================================================================================
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
revoke all on function private.invitation_allows_sign_up(text, text)
  from public, anon, authenticated;
