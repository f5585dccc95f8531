-- Calendar addresses end with the member (issue 22, R13). Until now a deactivated member's
-- address only stopped answering while they were inactive (calendar_feed joins on is_active):
-- reactivating them brought back every address they had handed to a calendar application, a
-- shared family calendar or a phone since lost. Deactivation (or leaving the organisation) now
-- deletes the member's address with its token, on every path that changes the profile, so a
-- reactivated member makes a new one.

-- ============================================================================================
-- Functions
-- ============================================================================================
-- After a profile stops being an active member of an organisation, its calendar address goes.
create function private.end_calendar_feeds_of_former_member()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from public.calendar_feeds f where f.user_id = new.id;
  return null;
end
$$;

create trigger user_profiles_end_calendar_feeds
  after update of is_active, organization_id on public.user_profiles
  for each row
  when ((old.is_active and not new.is_active)
        or old.organization_id is distinct from new.organization_id)
  execute function private.end_calendar_feeds_of_former_member();

-- Addresses of members deactivated before this migration: they would answer again on
-- reactivation.
delete from public.calendar_feeds f
using public.user_profiles p
where p.id = f.user_id and (not p.is_active or p.organization_id is distinct from f.organization_id);

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on function private.end_calendar_feeds_of_former_member() from public, anon, authenticated;
