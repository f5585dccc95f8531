-- Whoever set up a second factor is held to it by the database, not only by the app (issue 22,
-- R6). A member, or an admin of an organisation that does not require two-factor sign-in, who
-- enrolled a TOTP factor could still read, download and change everything with a password-only
-- (`aal1`) session: only the app asked for the code. Now, as Supabase's documentation shows
-- ("Enforce for users who have enrolled"), a session without `aal2` whose user has a verified
-- factor reaches nothing of the organisation but the second step itself (the auth service's
-- /factors, and `two_factor_status`):
--
-- * `private.require_second_factor` is the one rule: it refuses an admin whom the organisation
--   requires to use a second factor (as before), and now whoever enrolled one, each with its
--   own message. Every rpc function reaches it through `caller_profile()` or
--   `caller_organization_id()`.
-- * `private.second_factor_checked()` applies it to the caller in a restrictive policy on every
--   table the browser reaches and on storage.objects, so that no permissive policy, present or
--   future, lets such a session through (tests/security/catalog.test.ts checks that every such
--   table has it). It raises the refusal rather than answering false, so that the statement
--   fails with the reason whichever policy Postgres checks first, as the organisation's rule
--   always did; policies call it inside `(select …)`, once per statement, and a user's factors
--   are found through `mfa_factors_user_id_idx`.

create or replace function private.require_second_factor(user_id uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if user_id is null or private.session_is_aal2() then
    return;
  end if;
  if private.two_factor_required_for(user_id) then
    raise exception 'Two-factor sign-in is required for admins of this organization'
      using errcode = '42501',
            hint = 'Set up two-factor sign-in in your profile, or sign in with your code.';
  end if;
  if exists (select 1 from auth.mfa_factors f
             where f.user_id = require_second_factor.user_id and f.status = 'verified') then
    raise exception 'Sign in with your two-factor code first'
      using errcode = '42501',
            hint = 'You set up two-factor sign-in: enter the code of your authenticator app.';
  end if;
end
$$;

-- True when the caller's session may act; otherwise the refusal is raised (never false).
create function private.second_factor_checked()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform private.require_second_factor((select auth.uid()));
  return true;
end
$$;

revoke all on function private.second_factor_checked() from public, anon, authenticated;
-- Policies run their functions as the querying role.
grant execute on function private.second_factor_checked() to authenticated;

-- One restrictive policy per table, for every command.
do $$
declare
  _table text;
begin
  foreach _table in array array[
    'activity_log', 'calendar_feeds', 'corporate_status', 'custom_integrations',
    'document_texts', 'document_versions', 'documents', 'integration_contacts',
    'integration_customizations', 'oauth_configs', 'oauth_connections', 'organization_exports',
    'organization_imports', 'organizations', 'outbox_messages', 'reminder_settings',
    'user_invitations', 'user_profiles'
  ] loop
    execute format(
      'create policy "second factor proved when enrolled or required" on public.%I as restrictive '
      'for all to authenticated using ((select private.second_factor_checked())) '
      'with check ((select private.second_factor_checked()))',
      _table);
  end loop;
end
$$;

create policy "second factor proved when enrolled or required" on storage.objects as restrictive
  for all to authenticated
  using ((select private.second_factor_checked()))
  with check ((select private.second_factor_checked()));
