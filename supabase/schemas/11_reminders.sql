-- Reminders: once a day, at the hour an organisation chose in its time zone, every recipient
-- gets one digest listing the documents that reached a reminder threshold: so many days before
-- the expiry date (default 30, 7 and 1), on the day it becomes overdue and then weekly.
--
-- Each threshold fires once per renewal cycle: the log below is keyed by the document, its
-- expiry date and the threshold, and a new expiry date (a renewal) starts afresh. A document
-- marked "renewal in progress" is skipped (and nothing is logged for it, so its reminders
-- resume where they are due when the marker goes), and so is one in the trash. After
-- downtime, the next run sends what is due then: the nearest threshold passed, once. A run is claimed per organisation and local
-- date, so nothing is sent twice, also with two server processes on one PostgreSQL.
--
-- The embedded server runs this from its scheduler (server/reminders/); on hosted Supabase,
-- pg_cron calls the same functions (docs/reminders.md, 19_mail_worker.sql). Members turn their
-- own reminder e-mails off with user_profiles.email_reminders (01_organizations_and_profiles.sql).

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Per organisation; an organisation without a row uses the defaults.
create table public.reminder_settings (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  -- Days before the expiry date on which to remind, largest first, no duplicates.
  days_before integer[] not null default '{30,7,1}'
    constraint reminder_settings_days_before_check check (
      cardinality(days_before) <= 10
      and array_position(days_before, null) is null
      and 0 <= all (days_before) and 365 >= all (days_before)
    ),
  -- Remind on the day a document becomes overdue, then every 7 days.
  remind_overdue boolean not null default true,
  -- The local hour (0–23) in `time_zone` (an IANA name) at which the day's digests go out.
  send_hour integer not null default 8
    constraint reminder_settings_send_hour_check check (send_hour between 0 and 23),
  time_zone text not null default 'UTC'
    constraint reminder_settings_time_zone_length check (char_length(time_zone) between 1 and 64),
  -- The responsible member (falling back to the admins), all admins, or both.
  recipients text not null default 'both'
    constraint reminder_settings_recipients_check check (recipients in ('responsible', 'admins', 'both')),
  updated_at timestamptz not null default now()
);

-- Which threshold of which renewal cycle (document and expiry date) has fired.
create table private.reminder_log (
  document_id uuid not null references public.documents (id) on delete cascade,
  expiry_date date not null,
  -- `before:<days>` or `overdue:<weeks since it became overdue>`.
  threshold text not null,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  local_date date not null,
  created_at timestamptz not null default now(),
  primary key (document_id, expiry_date, threshold)
);

-- One reminder run per organisation and local date.
create table private.reminder_runs (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  local_date date not null,
  digests integer not null default 0,
  created_at timestamptz not null default now(),
  primary key (organization_id, local_date)
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index reminder_log_organization_id_idx on private.reminder_log (organization_id);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger reminder_settings_touch_updated_at
  before update on public.reminder_settings
  for each row execute function private.touch_updated_at();

-- Settings as stored: days sorted largest first without duplicates, a known time zone.
create function private.normalise_reminder_settings()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  new.days_before := array(select distinct d from unnest(new.days_before) d order by d desc);
  new.time_zone := private.trim_whitespace(new.time_zone);
  if not exists (select 1 from pg_catalog.pg_timezone_names z where z.name = new.time_zone) then
    raise exception 'Unknown time zone: %', left(new.time_zone, 64) using errcode = '23514';
  end if;
  return new;
end
$$;

create trigger reminder_settings_normalise
  before insert or update on public.reminder_settings
  for each row execute function private.normalise_reminder_settings();

-- A new expiry date is a new renewal cycle: its thresholds fire again.
create function private.reset_reminder_cycle()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  delete from private.reminder_log l where l.document_id = new.id;
  return null;
end
$$;

create trigger documents_reset_reminder_cycle
  after update of expiry_date on public.documents
  for each row when (old.expiry_date is distinct from new.expiry_date)
  execute function private.reset_reminder_cycle();

-- An organisation's settings, with the defaults where it has none.
create function private.reminder_settings_of(organization_id uuid)
returns public.reminder_settings
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(s.organization_id, reminder_settings_of.organization_id),
         coalesce(s.days_before, '{30,7,1}'), coalesce(s.remind_overdue, true),
         coalesce(s.send_hour, 8), coalesce(s.time_zone, 'UTC'), coalesce(s.recipients, 'both'),
         coalesce(s.updated_at, now())
  from (select 1) one
  left join public.reminder_settings s on s.organization_id = reminder_settings_of.organization_id
$$;

-- The threshold a document with `days_left` days to its expiry date has reached, or null: the
-- nearest reminder day at or above `days_left` (so a document added 5 days before its expiry
-- fires the 7-day reminder, once), or the overdue week. Overdue means the expiry date has
-- passed (day 1 of overdue is week 0).
create function private.reminder_threshold(days_left integer, days_before integer[], remind_overdue boolean)
returns text
language sql
immutable
set search_path = ''
as $$
  select case
    when days_left >= 0 then
      (select 'before:' || min(d) from unnest(days_before) d where d >= days_left)
    when remind_overdue then 'overdue:' || ((-days_left - 1) / 7)
  end
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.reminder_settings enable row level security;
alter table private.reminder_log enable row level security;
alter table private.reminder_runs enable row level security;

create policy "members read their organisation's reminder settings"
  on public.reminder_settings for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

create policy "admins add their organisation's reminder settings"
  on public.reminder_settings for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('admin')));

create policy "admins change their organisation's reminder settings"
  on public.reminder_settings for update to authenticated
  using (organization_id = (select private.caller_organization_id('admin')))
  with check (organization_id = (select private.caller_organization_id('admin')));

create policy "admins reset their organisation's reminder settings"
  on public.reminder_settings for delete to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- ============================================================================================
-- Functions
-- ============================================================================================

-- Organisations whose send hour has come today in their time zone, that have not had today's
-- run, and that have a document within reach of a threshold. The scheduler adds one job per
-- row; `at` is the scheduler's clock.
create function private.due_reminder_runs(at timestamptz)
returns table (organization_id uuid, local_date date)
language sql
stable
security definer
set search_path = ''
as $$
  select o.id, l.local_date
  from public.organizations o
  cross join lateral private.reminder_settings_of(o.id) s
  cross join lateral (
    select (due_reminder_runs.at at time zone s.time_zone) as local_time,
           (due_reminder_runs.at at time zone s.time_zone)::date as local_date
  ) l
  where extract(hour from l.local_time) >= s.send_hour
    and not exists (
      select 1 from private.reminder_runs r
      where r.organization_id = o.id and r.local_date = l.local_date
    )
    and exists (
      select 1 from public.documents d
      where d.organization_id = o.id
        and d.expiry_date <= l.local_date + coalesce((select max(x) from unnest(s.days_before) x), -1)
        and (s.remind_overdue or d.expiry_date >= l.local_date)
        and not d.renewal_in_progress
        and d.deleted_at is null
    )
$$;

-- One organisation's reminders for `local_date`: logs the thresholds that fire, and records one
-- digest per recipient (at most 100 documents listed, the rest counted). Returns the number of
-- digests, or 0 when this organisation's run for that date was made already.
create function private.run_reminders(organization_id uuid, local_date date)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _settings public.reminder_settings := private.reminder_settings_of(run_reminders.organization_id);
  _organization_name text;
  _recipient record;
  _digests integer := 0;
begin
  insert into private.reminder_runs as r (organization_id, local_date)
  values (run_reminders.organization_id, run_reminders.local_date)
  on conflict do nothing;
  if not found then
    return 0;
  end if;
  select o.name into _organization_name from public.organizations o
  where o.id = run_reminders.organization_id;

  -- The documents whose threshold fires now: logged once per cycle. (Qualified with pg_temp:
  -- the temporary schema must never stand in for another relation of this function.)
  create temporary table _fired (
    id uuid, name text, category text, expiry_date date, responsible_id uuid,
    days_left integer, threshold text
  ) on commit drop;
  with due as (
    select d.id, d.name, d.category, d.expiry_date, d.responsible_id,
           d.expiry_date - run_reminders.local_date as days_left,
           private.reminder_threshold(d.expiry_date - run_reminders.local_date,
                                      _settings.days_before, _settings.remind_overdue) as threshold
    from public.documents d
    where d.organization_id = run_reminders.organization_id
      and d.expiry_date is not null
      and not d.renewal_in_progress
      and d.deleted_at is null
  ), logged as (
    insert into private.reminder_log as l
      (document_id, expiry_date, threshold, organization_id, local_date)
    select due.id, due.expiry_date, due.threshold, run_reminders.organization_id,
           run_reminders.local_date
    from due where due.threshold is not null
    on conflict do nothing
    returning l.document_id
  )
  insert into pg_temp._fired
  select due.* from due join logged on logged.document_id = due.id;

  -- Who hears of each: the responsible member while an active member of the organisation who
  -- may view it (else the admins), the admins, or both; never someone who turned reminders off,
  -- and nobody of a document they may not view (a restricted category's, issue 23).
  for _recipient in
    with members as (
      -- With the categories each may not view, read once per member.
      select p.id, p.email, p.full_name, p.role, p.email_reminders,
             array(select a.name from private.member_category_access(p.id) a
                    where not a.can_view) as hidden
      from public.user_profiles p
      where p.organization_id = run_reminders.organization_id and p.is_active
    ), admins as (
      select m.id from members m where m.role in ('admin', 'master_admin')
    ), candidates as (
      select f.id as document_id, m.id as user_id
      from pg_temp._fired f join members m on m.id = f.responsible_id
      where _settings.recipients in ('responsible', 'both')
      union
      select f.id, a.id
      from pg_temp._fired f cross join admins a
      where _settings.recipients in ('admins', 'both')
         or (_settings.recipients = 'responsible'
             and not exists (select 1 from members m where m.id = f.responsible_id
                              and f.category <> all (m.hidden)))
    ), addressed as (
      select c.document_id, c.user_id
      from candidates c
      join members m on m.id = c.user_id
      join pg_temp._fired f on f.id = c.document_id
      where f.category <> all (m.hidden)
    )
    select m.id, m.email, m.full_name,
           count(*)::integer as total,
           (count(*) filter (where f.days_left < 0))::integer as overdue,
           (select jsonb_agg(jsonb_build_object(
                     'id', x.id, 'name', x.name, 'category', x.category,
                     'expiry_date', x.expiry_date, 'days_left', x.days_left,
                     'threshold', x.threshold) order by x.expiry_date, x.name)
            from (
              select f2.* from addressed a2 join pg_temp._fired f2 on f2.id = a2.document_id
              where a2.user_id = m.id order by f2.expiry_date, f2.name limit 100
            ) x) as items
    from addressed a
    join members m on m.id = a.user_id and m.email_reminders
    join pg_temp._fired f on f.id = a.document_id
    where private.is_email_address(m.email)
    group by m.id, m.email, m.full_name
  loop
    if private.queue_mail(
         run_reminders.organization_id, 'reminders', array[_recipient.email],
         format('Renewals at %s: %s', _organization_name, array_to_string(array[
           case when _recipient.overdue > 0 then _recipient.overdue || ' overdue' end,
           case when _recipient.total > _recipient.overdue
                then (_recipient.total - _recipient.overdue) || ' expiring soon' end], ', ')),
         jsonb_build_object(
           'recipient_name', coalesce(nullif(private.trim_whitespace(_recipient.full_name), ''),
                                      _recipient.email),
           'organization_name', _organization_name,
           'local_date', run_reminders.local_date,
           'total', _recipient.total,
           'overdue', _recipient.overdue,
           'items', _recipient.items),
         '[]'::jsonb, null,
         format('reminders:%s:%s', _recipient.id, run_reminders.local_date)) is not null then
      _digests := _digests + 1;
    end if;
  end loop;

  drop table pg_temp._fired;
  update private.reminder_runs r set digests = _digests
  where r.organization_id = run_reminders.organization_id and r.local_date = run_reminders.local_date;
  -- Documents received through a request: their senders are asked for the renewal
  -- (22_document_requests.sql).
  perform private.ask_senders_for_renewals(run_reminders.organization_id, run_reminders.local_date);
  return _digests;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.reminder_settings from anon, authenticated;
grant select, delete on public.reminder_settings to authenticated;
grant insert (organization_id, days_before, remind_overdue, send_hour, time_zone, recipients)
  on public.reminder_settings to authenticated;
grant update (organization_id, days_before, remind_overdue, send_hour, time_zone, recipients)
  on public.reminder_settings to authenticated;
revoke all on private.reminder_log, private.reminder_runs from public, anon, authenticated;

revoke all on function private.normalise_reminder_settings() from public, anon, authenticated;
revoke all on function private.reset_reminder_cycle() from public, anon, authenticated;
revoke all on function private.reminder_settings_of(uuid) from public, anon, authenticated;
revoke all on function private.reminder_threshold(integer, integer[], boolean)
  from public, anon, authenticated;
revoke all on function private.due_reminder_runs(timestamptz) from public, anon, authenticated;
revoke all on function private.run_reminders(uuid, date) from public, anon, authenticated;
