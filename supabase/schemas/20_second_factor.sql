-- Whoever set up a second factor is held to it by the database, not only by the app (issue 22,
-- R6), as Supabase's documentation shows ("Enforce for users who have enrolled"): a session
-- without `aal2` whose user has a verified factor, or an admin whom the organisation requires to
-- use one, reaches nothing of the organisation but the second step itself. The rule is
-- `private.require_second_factor` (01_organizations_and_profiles.sql), which every rpc reaches
-- through `caller_profile()` or `caller_organization_id()`; here it guards every table the
-- browser reaches and storage.objects with one restrictive policy each, so that no permissive
-- policy, present or future, lets such a session through. tests/security/catalog.test.ts fails
-- when a table the browser can reach lacks it: add a new table to the list below. This file
-- comes last because it names the tables of every domain.

-- ============================================================================================
-- Policies
-- ============================================================================================
-- One restrictive policy per table, for every command.
do $$
declare
  _table text;
begin
  foreach _table in array array[
    'activity_log', 'calendar_feeds', 'category_access', 'corporate_status',
    'custom_integrations', 'departments', 'document_categories', 'document_texts',
    'document_versions', 'documents', 'integration_contacts', 'integration_customizations',
    'member_group_members', 'member_groups', 'oauth_configs', 'oauth_connections',
    'organization_exports',
    'organization_imports', 'organization_mail_servers', 'organizations', 'outbox_messages', 'reminder_settings',
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
