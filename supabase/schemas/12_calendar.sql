-- Calendar feeds: each member may have one secret address from which a calendar application
-- reads the organisation's expiry dates (all of them, or only the documents the member is
-- responsible for) as an iCalendar feed, served by the edge function `calendar`.
--
-- The address holds a 244-bit token, shown once when it is made and stored only as its SHA-256
-- (in private.calendar_feed_tokens, which no API role reaches), as invitation tokens are.
-- Making a new address or removing it revokes the old one at once. A member who is deactivated
-- or leaves the organisation takes the feed along: the address is deleted, so it answers 404 from
-- then on, also after a reactivation (20261128000500).

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.calendar_feeds (
  id uuid primary key default gen_random_uuid(),
  -- One feed per member.
  user_id uuid not null unique references public.user_profiles (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- `all` documents of the organisation with an expiry date, or only `mine`.
  scope text not null constraint calendar_feeds_scope_check check (scope in ('all', 'mine')),
  created_at timestamptz not null default now(),
  -- When a calendar application last read it.
  last_fetched_at timestamptz
);

create table private.calendar_feed_tokens (
  feed_id uuid primary key references public.calendar_feeds (id) on delete cascade,
  token_hash text not null unique
    constraint calendar_feed_tokens_token_hash_check check (token_hash ~ '^[0-9a-f]{64}$')
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index calendar_feeds_organization_id_idx on public.calendar_feeds (organization_id);

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.calendar_feeds enable row level security;
alter table private.calendar_feed_tokens enable row level security;

create policy "members read their own calendar feed"
  on public.calendar_feeds for select to authenticated
  using (
    user_id = (select auth.uid())
    and organization_id = (select private.caller_organization_id('viewer'))
  );

-- No insert, update or delete policies: feeds change through the functions below.

-- ============================================================================================
-- Functions
-- ============================================================================================
create type public.calendar_feed_result as (
  id uuid,
  scope text,
  -- The secret of the address; returned only here, once.
  token text,
  created_at timestamptz
);

-- A member makes their calendar address (replacing, and so revoking, any earlier one).
create function public.create_calendar_feed(scope text)
returns public.calendar_feed_result
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  _me public.user_profiles := private.caller_profile();
  _scope text := coalesce(nullif(private.trim_whitespace(create_calendar_feed.scope), ''), 'all');
  _token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
  _feed public.calendar_feeds;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if _scope not in ('all', 'mine') then
    raise exception 'Scope must be all or mine';
  end if;
  delete from public.calendar_feeds f where f.user_id = _me.id;
  insert into public.calendar_feeds (user_id, organization_id, scope)
  values (_me.id, _me.organization_id, _scope)
  returning * into _feed;
  insert into private.calendar_feed_tokens (feed_id, token_hash)
  values (_feed.id, private.hash_invitation_token(_token));
  return (_feed.id, _feed.scope, _token, _feed.created_at)::public.calendar_feed_result;
end
$$;

-- A member removes their calendar address; it answers 404 from now on.
create function public.revoke_calendar_feed()
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  delete from public.calendar_feeds f where f.user_id = _me.id;
end
$$;

-- What the feed of `token` shows, for the `calendar` function (service role only): null for an
-- unknown, revoked or malformed token and for a member who is no longer active. Every token
-- takes the same path, a hash and one indexed lookup, so the time of a refusal tells nothing.
create function public.calendar_feed(token text)
returns jsonb
language plpgsql
security definer
set search_path = ''
as $$
declare
  _feed public.calendar_feeds;
  _settings public.reminder_settings;
  _result jsonb;
begin
  select f.* into _feed
  from private.calendar_feed_tokens t
  join public.calendar_feeds f on f.id = t.feed_id
  join public.user_profiles p
    on p.id = f.user_id and p.organization_id = f.organization_id and p.is_active
  where t.token_hash = private.hash_invitation_token(left(coalesce(calendar_feed.token, ''), 200));
  if not found then
    return null;
  end if;
  update public.calendar_feeds f set last_fetched_at = now() where f.id = _feed.id;
  _settings := private.reminder_settings_of(_feed.organization_id);
  select jsonb_build_object(
    'organization_name', o.name,
    'scope', _feed.scope,
    -- The alarm of each event: the first (largest) reminder threshold, if any.
    'alarm_days_before', (select max(d) from unnest(_settings.days_before) d),
    'events', coalesce((
      select jsonb_agg(jsonb_build_object(
               'id', d.id, 'name', d.name, 'category', d.category,
               'expiry_date', d.expiry_date, 'description', d.description,
               'renewal_in_progress', d.renewal_in_progress,
               'responsible_name', private.display_name(r),
               'updated_at', d.updated_at)
             order by d.expiry_date, d.id)
      from public.documents d
      left join public.user_profiles r on r.id = d.responsible_id
      where d.organization_id = _feed.organization_id
        and d.expiry_date is not null
        and d.deleted_at is null
        and (_feed.scope = 'all' or d.responsible_id = _feed.user_id)
        -- Only what the feed's member may view (issue 23).
        and d.category <> all (array(select a.name from private.member_category_access(_feed.user_id) a
                                      where not a.can_view))
    ), '[]'::jsonb))
  into _result
  from public.organizations o where o.id = _feed.organization_id;
  return _result;
end
$$;

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

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.calendar_feeds from anon, authenticated;
grant select on public.calendar_feeds to authenticated;
revoke all on private.calendar_feed_tokens from public, anon, authenticated, service_role;

revoke all on function public.create_calendar_feed(text) from public, anon, authenticated;
revoke all on function public.revoke_calendar_feed() from public, anon, authenticated;
revoke all on function public.calendar_feed(text) from public, anon, authenticated;
grant execute on function public.create_calendar_feed(text) to authenticated;
grant execute on function public.revoke_calendar_feed() to authenticated;
-- Only the `calendar` function, with the service-role key, reads a feed.
grant execute on function public.calendar_feed(text) to service_role;
revoke all on function private.end_calendar_feeds_of_former_member() from public, anon, authenticated;
