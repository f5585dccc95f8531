-- Issue 24, "A church makes Steward its own": the organisation's name and time zone in one
-- call (update_organization); its own departments (public.departments, seeded with the
-- specification's nine for every organisation, existing ones included; reorder_departments;
-- search_documents' section_categories for their pages); a first-run checklist
-- (onboarding_status, update_onboarding); whether e-mail is delivered (mail_delivery); a second
-- master admin (make_master_admin) and an organisation that always keeps an active one; the
-- checks before an admin is given a member's one-time reset link
-- (authorize_password_reset_link); recovery codes (generate_recovery_codes,
-- recovery_codes_left, redeem_recovery_code). Each object's living definition is in
-- supabase/schemas/ (01, 05, 08, 14, 17, 20).

-- ============================================================================================
-- Issue 24: the organisation's own settings, a master admin who can always sign in, reset
-- links an admin passes on
-- ============================================================================================
-- Admins rename the organisation and choose its time zone (the reminders' clock, kept in
-- reminder_settings.time_zone) in Settings, in one transaction.
create function public.update_organization(name text, time_zone text)
returns public.organizations
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _name text := private.trim_whitespace(coalesce(update_organization.name, ''));
  _zone text := nullif(private.trim_whitespace(update_organization.time_zone), '');
  _organization public.organizations;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Only admins can change the organization settings';
  end if;
  if _name = '' then
    raise exception 'Organization name is required';
  end if;
  if char_length(_name) > 200 then
    raise exception 'Organization name must be at most 200 characters';
  end if;
  update public.organizations o set name = _name
  where o.id = _me.organization_id and o.name is distinct from _name;
  if _zone is not null then
    insert into public.reminder_settings as s (organization_id, time_zone)
    values (_me.organization_id, _zone)
    on conflict (organization_id) do update set time_zone = excluded.time_zone
      where s.time_zone is distinct from excluded.time_zone;
  end if;
  select * into _organization from public.organizations o where o.id = _me.organization_id;
  return _organization;
end
$$;

-- A master admin makes an active admin of the organisation a master admin too, so that a
-- master admin who loses her phone or password can be helped by another (the specification
-- lets nobody change a master admin's role afterwards, so the organisation keeps both).
create function public.make_master_admin(user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if _me.role <> 'master_admin' then
    raise exception 'Only master admins can make a master admin';
  end if;
  select * into _target from public.user_profiles p
  where p.id = make_master_admin.user_id and p.organization_id = _me.organization_id
  for update;
  if not found then
    raise exception 'User not found';
  end if;
  if _target.role = 'master_admin' then
    raise exception 'This member is already a master admin';
  end if;
  if _target.role <> 'admin' or not _target.is_active then
    raise exception 'Only an active admin can become a master admin';
  end if;
  update public.user_profiles p set role = 'master_admin' where p.id = _target.id;
end
$$;

-- Whatever path changes a profile (the functions above, the service role, a future function),
-- an organisation keeps at least one active master admin: the last one cannot lose the role,
-- be deactivated or leave. Deleting the organisation itself (its profiles lose it by the
-- foreign key, after it is gone) is not held back.
create function private.keep_a_master_admin()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if old.role <> 'master_admin' or not old.is_active or old.organization_id is null
     or (new.role = 'master_admin' and new.is_active
         and new.organization_id is not distinct from old.organization_id) then
    return new;
  end if;
  if not exists (select 1 from public.organizations o where o.id = old.organization_id) then
    return new;
  end if;
  if not exists (
    select 1 from public.user_profiles p
    where p.organization_id = old.organization_id and p.id <> old.id
      and p.role = 'master_admin' and p.is_active
  ) then
    raise exception 'An organization must keep a master admin who can sign in'
      using errcode = '23514';
  end if;
  return new;
end
$$;

create trigger user_profiles_keep_a_master_admin
  before update of role, is_active, organization_id on public.user_profiles
  for each row execute function private.keep_a_master_admin();

-- The checks before an admin is given a one-time link that signs a member in to set a new
-- password (the `member-reset-link` edge function calls this as the admin, then has the auth
-- service make the link, as GoTrue's admin generate_link does): for a member who cannot get
-- the e-mail. Admins make links for users; master admins for anyone else of the organisation,
-- so that a master admin can always be helped by another. Recorded in the history; at most 20
-- an hour per organisation. Answers the member's e-mail address.
create function public.authorize_password_reset_link(user_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to make reset links';
  end if;
  if authorize_password_reset_link.user_id = _me.id then
    raise exception 'Use "Forgot your password?" on the sign-in page for your own account';
  end if;
  select * into _target from public.user_profiles p
  where p.id = authorize_password_reset_link.user_id and p.organization_id = _me.organization_id;
  if not found then
    raise exception 'User not found';
  end if;
  if not _target.is_active then
    raise exception 'This member is deactivated';
  end if;
  if _me.role <> 'master_admin' and private.role_rank(_target.role) >= private.role_rank(_me.role) then
    raise exception 'Only a master admin can make a reset link for an admin';
  end if;
  if (select count(*) from public.activity_log a
      where a.organization_id = _me.organization_id and a.kind = 'member.reset_link_made'
        and a.occurred_at > now() - interval '1 hour') >= 20 then
    raise exception 'Too many reset links made in the last hour; please try again later';
  end if;
  perform private.log_activity(_me.organization_id, 'member.reset_link_made', null,
    private.display_name(_target), jsonb_build_object('member_id', _target.id));
  return _target.email;
end
$$;

revoke all on function public.update_organization(text, text) from public, anon, authenticated;
revoke all on function public.make_master_admin(uuid) from public, anon, authenticated;
revoke all on function private.keep_a_master_admin() from public, anon, authenticated;
revoke all on function public.authorize_password_reset_link(uuid) from public, anon, authenticated;
grant execute on function public.update_organization(text, text) to authenticated;
grant execute on function public.make_master_admin(uuid) to authenticated;
grant execute on function public.authorize_password_reset_link(uuid) to authenticated;

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
  select s.delivery from private.mail_settings s
$$;

revoke all on function public.mail_delivery() from public, anon, authenticated;
grant execute on function public.mail_delivery() to anon, authenticated;

-- ============================================================================================
-- Issue 24: the organisation's own departments, and its first-run checklist
-- ============================================================================================
-- The department pages of an organisation (/department/{key}). Every organisation starts with
-- the specification's nine (added with the organisation, below); admins rename, add, hide,
-- reorder and remove them, and choose which document categories and tags feed each page. The
-- key is made from the first name and never changes, so that a renamed department keeps its
-- address.
create table public.departments (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  key text not null
    constraint departments_key_check check (key ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(key) <= 60),
  name text not null
    constraint departments_name_check check (
      char_length(name) between 1 and 100 and name !~ '^[[:space:]]|[[:space:]]$'
    ),
  description text
    constraint departments_description_check check (char_length(description) <= 500),
  position integer not null default 0,
  hidden boolean not null default false,
  -- Documents of these categories (by name) appear on the page…
  categories text[] not null default '{}'
    constraint departments_categories_check check (
      cardinality(categories) <= 30 and array_position(categories, null) is null
    ),
  -- …and documents with any of these tags.
  tags text[] not null default '{}'
    constraint departments_tags_check check (
      cardinality(tags) <= 30 and array_position(tags, null) is null
    ),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint departments_organization_key unique (organization_id, key)
);

create index departments_organization_id_position_idx
  on public.departments (organization_id, position);

create trigger departments_touch_updated_at
  before update on public.departments
  for each row execute function private.touch_updated_at();

-- A department as stored: its name and description trimmed, its categories and tags trimmed,
-- without blanks or repeats (each at most 100 characters); a new one gets a key made from its
-- name (`Youth & Family` → `youth-family`, numbered when taken) and goes last. At most 50 an
-- organisation.
create function private.normalise_department()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _base text;
  _n integer := 1;
begin
  new.name := private.trim_whitespace(new.name);
  new.description := nullif(private.trim_whitespace(new.description), '');
  -- In the order given, the first of each spelling kept (categories compared without case).
  new.categories := array(
    select t.c from (select private.trim_whitespace(x) as c, o
                     from unnest(new.categories) with ordinality as u (x, o)) t
    where t.c <> '' and not exists (
      select 1 from unnest(new.categories) with ordinality as e (y, p)
      where e.p < t.o and lower(private.trim_whitespace(e.y)) = lower(t.c))
    order by t.o);
  new.tags := array(
    select t.c from (select private.trim_whitespace(x) as c, o
                     from unnest(new.tags) with ordinality as u (x, o)) t
    where t.c <> '' and not exists (
      select 1 from unnest(new.tags) with ordinality as e (y, p)
      where e.p < t.o and private.trim_whitespace(e.y) = t.c)
    order by t.o);
  if exists (select 1 from unnest(new.categories || new.tags) v where char_length(v) > 100) then
    raise exception 'A category or tag of a department must be at most 100 characters'
      using errcode = '23514';
  end if;
  if tg_op = 'INSERT' then
    if (select count(*) from public.departments d
        where d.organization_id = new.organization_id) >= 50 then
      raise exception 'An organization can have at most 50 departments' using errcode = '23514';
    end if;
    _base := coalesce(nullif(trim(both '-' from left(
      regexp_replace(lower(new.name), '[^a-z0-9]+', '-', 'g'), 50)), ''), 'department');
    -- The seeded departments come with the specification's keys.
    if new.key is null then
      new.key := _base;
      while exists (select 1 from public.departments d
                    where d.organization_id = new.organization_id and d.key = new.key) loop
        _n := _n + 1;
        new.key := _base || '-' || _n;
      end loop;
    end if;
    if new.position = 0 then
      new.position := coalesce((select max(d.position) + 1 from public.departments d
                                where d.organization_id = new.organization_id), 1);
    end if;
  end if;
  return new;
end
$$;

create trigger departments_normalise
  before insert or update on public.departments
  for each row execute function private.normalise_department();

-- The specification's nine departments, a new organisation's starting list: each page shows
-- the documents tagged with its key or its name (as before departments could be changed).
create function private.seed_departments(organization_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  insert into public.departments (organization_id, key, name, position, tags)
  select seed_departments.organization_id, d.key, d.name, d.position,
         array(select s.t from unnest(array[d.key, d.name, lower(d.name)]) with ordinality s (t, o)
               group by s.t order by min(s.o))
  from (values
    (1, 'foster-adopt', 'Foster & Adopt'), (2, 'r-kids', 'R/Kids'), (3, 'r-youth', 'R/Youth'),
    (4, 'creative-media', 'Creative Media'), (5, 'cge', 'CGE'),
    (6, 'sunday-production', 'Sunday Production'), (7, 'worship', 'Worship'),
    (8, 'elder-board', 'Elder Board'), (9, 'deacon-board', 'Deacon Board')
  ) as d (position, key, name)
  on conflict on constraint departments_organization_key do nothing
$$;

-- The key of a seeded department is the specification's; the trigger above keeps it.
create function private.seed_organization_departments()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.seed_departments(new.id);
  return null;
end
$$;

create trigger organizations_seed_departments
  after insert on public.organizations
  for each row execute function private.seed_organization_departments();

alter table public.departments enable row level security;

create policy "members read their organisation's departments"
  on public.departments for select to authenticated
  using (organization_id = (select private.caller_organization_id()));

create policy "admins add departments"
  on public.departments for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('admin')));

create policy "admins change departments"
  on public.departments for update to authenticated
  using (organization_id = (select private.caller_organization_id('admin')))
  with check (organization_id = (select private.caller_organization_id('admin')));

create policy "admins remove departments"
  on public.departments for delete to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- Admins put the departments in an order: `department_ids` names each of the organisation's
-- departments once, in the order wanted.
create function public.reorder_departments(department_ids uuid[])
returns void
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
    raise exception 'Only admins can change the departments';
  end if;
  perform 1 from public.departments d where d.organization_id = _me.organization_id for update;
  if coalesce(cardinality(department_ids), 0) <> (select count(distinct i) from unnest(department_ids) i)
     or (select array_agg(d.id order by d.id) from public.departments d
         where d.organization_id = _me.organization_id)
        is distinct from (select array_agg(i order by i) from unnest(department_ids) i) then
    raise exception 'Name each department of the organization once';
  end if;
  update public.departments d set position = o.n
  from unnest(department_ids) with ordinality as o (id, n)
  where d.id = o.id and d.position is distinct from o.n::integer;
end
$$;

-- The first-run checklist on a new organisation's dashboard: what admins did about it (the
-- other steps tick themselves from what the organisation has).
create table private.organization_onboarding (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  categories_reviewed_at timestamptz,
  dismissed_at timestamptz
);

alter table private.organization_onboarding enable row level security;

-- The checklist for admins: each step and whether it is done, and whether it was dismissed.
create function public.onboarding_status()
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
    'email_ready', (select s.delivery from private.mail_settings s) = 'smtp',
    'documents_uploaded',
      exists (select 1 from public.documents d where d.organization_id = _me.organization_id),
    'dismissed', _state.dismissed_at is not null);
end
$$;

-- Admins tick the review of categories and access (`categories_reviewed`, when they open the
-- page that shows them), or put the checklist away (`dismissed`).
create function public.update_onboarding(step text)
returns void
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
    raise exception 'Only admins can change the first-run checklist';
  end if;
  if step is null or step not in ('categories_reviewed', 'dismissed') then
    raise exception 'The step must be categories_reviewed or dismissed';
  end if;
  insert into private.organization_onboarding as o (organization_id, categories_reviewed_at, dismissed_at)
  values (_me.organization_id,
          case when step = 'categories_reviewed' then now() end,
          case when step = 'dismissed' then now() end)
  on conflict (organization_id) do update
    set categories_reviewed_at = coalesce(o.categories_reviewed_at, excluded.categories_reviewed_at),
        dismissed_at = coalesce(o.dismissed_at, excluded.dismissed_at);
end
$$;

revoke all on public.departments from anon, authenticated;
grant select on public.departments to authenticated;
grant insert (id, organization_id, name, description, position, hidden, categories, tags)
  on public.departments to authenticated;
grant update (name, description, hidden, categories, tags) on public.departments to authenticated;
grant delete on public.departments to authenticated;
revoke all on private.organization_onboarding from public, anon, authenticated, service_role;
revoke all on function private.normalise_department() from public, anon, authenticated;
revoke all on function private.seed_departments(uuid) from public, anon, authenticated;
revoke all on function private.seed_organization_departments() from public, anon, authenticated;
revoke all on function public.reorder_departments(uuid[]) from public, anon, authenticated;
revoke all on function public.onboarding_status() from public, anon, authenticated;
revoke all on function public.update_onboarding(text) from public, anon, authenticated;
grant execute on function public.reorder_departments(uuid[]) to authenticated;
grant execute on function public.onboarding_status() to authenticated;
grant execute on function public.update_onboarding(text) to authenticated;

-- Every organisation that exists starts with the specification's nine departments.
select private.seed_departments(o.id) from public.organizations o;

-- After the seeding above, which is no change anybody made.
-- Not the nine a new organisation starts with (added by its own trigger, one level down).
create trigger departments_log_activity
  after insert or update or delete on public.departments
  for each row when (pg_trigger_depth() = 0) execute function private.log_settings_change();

create policy "second factor proved when enrolled or required" on public.departments as restrictive
  for all to authenticated
  using ((select private.second_factor_checked()))
  with check ((select private.second_factor_checked()));

-- ============================================================================================
-- Issue 24: recovery codes, a way back after losing the phone
-- ============================================================================================
-- GoTrue has no recovery codes; these are Steward's, in the database, so they work alike on the
-- embedded server and on hosted Supabase. A member with a verified factor makes ten one-time
-- codes (in a session that proved the factor; making new ones voids the old). Someone who lost
-- the phone signs in with the password and gives one code instead of the authenticator's: the
-- code is spent, the member's factors are removed and their other sessions end (as a master
-- admin's `remove_member_two_factor` does), and the app asks them to set up two-factor sign-in
-- again. A code is as strong as the authenticator's step it replaces: it needs the password
-- first, is 48 random bits, is stored only as its SHA-256, works once, and wrong codes are
-- limited to 5 in 15 minutes per account.
create table private.recovery_codes (
  user_id uuid not null references auth.users (id) on delete cascade,
  code_hash text not null,
  created_at timestamptz not null default now(),
  primary key (user_id, code_hash)
);

create table private.recovery_code_failures (
  user_id uuid not null references auth.users (id) on delete cascade,
  failed_at timestamptz not null default now()
);

create index recovery_code_failures_user_id_failed_at_idx
  on private.recovery_code_failures (user_id, failed_at);

alter table private.recovery_codes enable row level security;
alter table private.recovery_code_failures enable row level security;

-- A code as typed: lower case, without spaces or dashes.
create function private.recovery_code_hash(code text)
returns text
language sql
immutable
set search_path = ''
as $$
  select encode(sha256(convert_to(
    regexp_replace(lower(coalesce(code, '')), '[^0-9a-z]', '', 'g'), 'UTF8')), 'hex')
$$;

-- Ten new codes for the caller, shown once (`xxxx-xxxx-xxxx`, 48 random bits each from the
-- server's cryptographic generator); the earlier ones stop working.
create function public.generate_recovery_codes()
returns text[]
language plpgsql
security definer
set search_path = ''
as $$
declare
  _uid uuid := (select auth.uid());
  _codes text[];
begin
  if _uid is null then
    raise exception 'User not authenticated';
  end if;
  if not exists (select 1 from auth.mfa_factors f where f.user_id = _uid and f.status = 'verified') then
    raise exception 'Set up two-factor sign-in first';
  end if;
  if not private.session_is_aal2() then
    raise exception 'Sign in with your two-factor code first';
  end if;
  select array_agg(substr(h, 1, 4) || '-' || substr(h, 5, 4) || '-' || substr(h, 9, 4))
  into _codes
  from (select replace(gen_random_uuid()::text, '-', '') as h from generate_series(1, 10)) g;
  delete from private.recovery_codes r where r.user_id = _uid;
  insert into private.recovery_codes (user_id, code_hash)
  select _uid, private.recovery_code_hash(c) from unnest(_codes) c;
  return _codes;
end
$$;

-- How many unused codes the caller has.
create function public.recovery_codes_left()
returns integer
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer from private.recovery_codes r where r.user_id = (select auth.uid())
$$;

-- Instead of the authenticator's code, in the session the password opened: spends the code,
-- removes the caller's factors (so this session reaches everything again) and ends their other
-- sessions. Answers the number of factors removed.
create function public.redeem_recovery_code(code text)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _uid uuid := (select auth.uid());
  _session text := (select auth.jwt()) ->> 'session_id';
  _organization uuid;
  _name text;
  _removed integer;
begin
  if _uid is null then
    raise exception 'User not authenticated';
  end if;
  -- Wrong codes wait their turn per account, so that guesses cannot be made in parallel.
  perform pg_advisory_xact_lock(hashtextextended('recovery:' || _uid::text, 0));
  if (select count(*) from private.recovery_code_failures f
      where f.user_id = _uid and f.failed_at > now() - interval '15 minutes') >= 5 then
    raise exception 'Too many wrong recovery codes; please try again in 15 minutes';
  end if;
  delete from private.recovery_codes r
  where r.user_id = _uid and r.code_hash = private.recovery_code_hash(redeem_recovery_code.code);
  if not found then
    insert into private.recovery_code_failures (user_id) values (_uid);
    delete from private.recovery_code_failures f
    where f.user_id = _uid and f.failed_at < now() - interval '1 day';
    -- The failure must be kept although the call fails: answer without raising.
    return -1;
  end if;
  delete from private.recovery_codes r where r.user_id = _uid;
  delete from private.recovery_code_failures f where f.user_id = _uid;
  delete from auth.mfa_factors f where f.user_id = _uid;
  get diagnostics _removed = row_count;
  delete from auth.sessions s
  where s.user_id = _uid and s.id::text is distinct from _session;
  select p.organization_id, private.display_name(p) into _organization, _name
  from public.user_profiles p where p.id = _uid;
  if _organization is not null then
    perform private.log_activity(_organization, 'member.recovery_code_used', null, _name,
      jsonb_build_object('member_id', _uid));
  end if;
  return _removed;
end
$$;

revoke all on private.recovery_codes, private.recovery_code_failures
  from public, anon, authenticated, service_role;
revoke all on function private.recovery_code_hash(text) from public, anon, authenticated;
revoke all on function public.generate_recovery_codes() from public, anon, authenticated;
revoke all on function public.recovery_codes_left() from public, anon, authenticated;
revoke all on function public.redeem_recovery_code(text) from public, anon, authenticated;
grant execute on function public.generate_recovery_codes() to authenticated;
grant execute on function public.recovery_codes_left() to authenticated;
grant execute on function public.redeem_recovery_code(text) to authenticated;

-- ============================================================================================
-- Issue 24: department pages fed by several categories (search_documents' section_categories)
-- ============================================================================================
drop function public.search_documents(text, text, text, text, uuid, text, text[], text, boolean, integer, integer, integer);

-- One page of the caller's organisation's documents.
--
-- `search` is what the search box holds: words (stemmed, and the last one also as a prefix
-- while it is being typed), "quoted phrases", `or`, `-word` (websearch_to_tsquery), and the
-- qualifiers `tag:x`, `category:x` (both case-insensitive; `"…"` for values with spaces) and
-- `expires:` followed by a date (`expires:<2027-01-01`, also `<=`, `>`, `>=`, `=`) or one of
-- overdue, soon, later, none. The filters narrow further: `expiry_filter` is overdue (before
-- today, UTC), soon (today to today + 30 days), later or none; `section_category` and
-- `section_tags` keep the documents of a category page (that category, or any of those tags),
-- and `section_categories` those of a department page (any of its categories or tags).
-- `sort_by`: relevance (the default with words), upload_date (the default without), name,
-- category, expiry_date, size, status; `sort_descending` null takes each order's natural
-- direction. `page_size` is at most 100. Security definer: every statement keeps to the
-- caller's organisation and leaves the trash out, as the documents policy does; a caller
-- without one gets no rows.
--
-- Words are counted up to `count_limit` matches (at most, and by default, 10,000): past it
-- `total_count` is the limit and `total_capped` true ("more than 10,000"), and the page is the
-- newest first, since ranking every match of a word typed so far as "b" would cost more than it
-- tells. The matches are ranked (`rank`, and the order by relevance) only when their search
-- vectors take at most 64 MB together; else `rank` is null and the page is the newest first. A
-- phrase, or excluded words alone, is tested in the newest documents first, as many as 64 MB
-- of vectors: when that leaves some untested, `total_count` is the matches found and
-- `total_capped` true. Without words the total is exact (the counter, or a count of the
-- filter's matches).
create function public.search_documents(
  search text default null,
  category_filter text default null,
  tag_filter text default null,
  expiry_filter text default null,
  uploaded_by_filter uuid default null,
  section_category text default null,
  section_tags text[] default null,
  sort_by text default null,
  sort_descending boolean default null,
  page_offset integer default 0,
  page_size integer default 50,
  count_limit integer default 10000,
  section_categories text[] default null
)
returns setof public.document_search_result
language plpgsql
stable
security definer
set search_path = ''
-- The data of the embedded database is in memory and PostgreSQL's usually on SSD: reading a
-- page at random costs about what reading the next one does. With the default (4) the planner
-- scans every text of a large organisation rather than fetch the few hundred rows the search
-- index points at.
set random_page_cost = 1.1
as $$
declare
  -- A qualifier: its name, then a "quoted value" or a bare one.
  _qualifier constant text := '(^|\s)(tag|category|expires):("([^"]*)"?|([^\s"]*))';
  _today date := (now() at time zone 'UTC')::date;
  _match text[];
  _value text;
  _date date;
  _free text;
  _tags text[] := '{}';
  _categories text[] := '{}';
  _states text[] := '{}';
  _after date;
  _before date;
  _english tsquery;
  _simple tsquery;
  _query tsquery;
  _descending boolean;
  _sort text := coalesce(nullif(sort_by, ''), case when coalesce(search, '') ~ '\w' then 'relevance' else 'upload_date' end);
  _from text;
  _where text := '';
  _where_filters text;
  _order text;
  _direction text;
  _total bigint;
  -- A page holds at most 100 documents, as PostgREST's max_rows caps a read: a larger page is
  -- served as 100 (the app asks for 50).
  _limit integer := least(greatest(coalesce(page_size, 50), 1), 100);
  _offset integer := greatest(coalesce(page_offset, 0), 0);
  _organization uuid := private.caller_organization_id();
  _count_limit integer := least(greatest(coalesce(count_limit, 10000), 1), 10000);
  _capped boolean := false;
  _sections text[] := array_remove(coalesce(section_categories, '{}') || section_category, null);
  -- Bytes of search vectors one search may read (to rank its matches, or to test a phrase).
  _read_budget constant bigint := 64 * 1024 * 1024;
  -- What reading a document's search vector costs, in bytes: its stored size, five times that
  -- for a vector stored compressed (before …0200), which must be decompressed too. Read from
  -- the row alone, without fetching the vector.
  _read_cost constant text := '(pg_catalog.pg_column_size(t.search_vector)::bigint
    * case when pg_catalog.pg_column_compression(t.search_vector) is null then 1 else 5 end)';
  _positive text;
  _candidates tsquery;
  _checked boolean := false;
  _many boolean := false;
  _small boolean := false;
  _matches uuid[] := '{}';
  _read bigint := 0;
  _all_read boolean := true;
  _ranked boolean := false;
  _page uuid[];
  _ranks real[];
  _pattern text;
  _scan integer;
begin
  if _organization is null then
    return;
  end if;
  if char_length(search) > 1000 then
    raise exception 'Search text must be at most 1000 characters';
  end if;

  -- Qualifiers first; what remains is the free text.
  for _match in select regexp_matches(coalesce(search, ''), _qualifier, 'gi') loop
    _value := coalesce(_match[4], _match[5]);
    case lower(_match[2])
      when 'tag' then
        if _value <> '' then _tags := _tags || lower(_value); end if;
      when 'category' then
        if _value <> '' then _categories := _categories || lower(_value); end if;
      else
        if lower(_value) in ('overdue', 'soon', 'later', 'none') then
          _states := _states || lower(_value);
        elsif _value ~ '^(<=|>=|<|>|=)?[0-9]{4}-[0-9]{2}-[0-9]{2}$' then
          begin
            _date := substring(_value from '[0-9]{4}-[0-9]{2}-[0-9]{2}$')::date;
          exception when others then
            raise exception 'Search: % is not a date', substring(_value from '[0-9-]+$');
          end;
          case substring(_value from '^[<>=]*')
            when '<' then _before := least(_before, _date);
            when '<=' then _before := least(_before, _date + 1);
            when '>' then _after := greatest(_after, _date);
            when '>=' then _after := greatest(_after, _date - 1);
            else
              _after := greatest(_after, _date - 1);
              _before := least(_before, _date + 1);
          end case;
        else
          raise exception 'Search: expires: takes a date such as expires:<2027-01-01, or overdue, soon, later or none';
        end if;
    end case;
  end loop;
  _free := regexp_replace(coalesce(search, ''), _qualifier, ' ', 'gi');

  -- The free text: stemmed words or words as written; the last word also as a prefix while it
  -- is being typed (the text ends in a letter or digit, not a space or a closing quote).
  if _free ~ '\w' then
    _english := websearch_to_tsquery('pg_catalog.english'::regconfig, _free);
    _simple := websearch_to_tsquery('pg_catalog.simple'::regconfig, _free);
  end if;
  if _free ~ '\w$' then
    if numnode(_english) > 0 and _english::text ~ '''$' then
      _english := (_english::text || ':*')::tsquery;
    end if;
    if numnode(_simple) > 0 and _simple::text ~ '''$' then
      _simple := (_simple::text || ':*')::tsquery;
    end if;
  end if;
  -- Both forms only where they differ (most words are their own stem), which also keeps the
  -- planner's estimate of the matches, and so its choice of the index, sound.
  _query := case
    when numnode(_english) > 0 and numnode(_simple) > 0 and _english::text <> _simple::text
      then _english || _simple
    when numnode(_simple) > 0 then _simple
  end;

  if category_filter is not null then
    _categories := _categories || lower(category_filter);
  end if;
  if tag_filter is not null then
    _tags := _tags || lower(tag_filter);
  end if;
  if expiry_filter is not null then
    if expiry_filter not in ('overdue', 'soon', 'later', 'none') then
      raise exception 'Expiry filter must be overdue, soon, later or none';
    end if;
    _states := _states || expiry_filter;
  end if;

  -- Each condition only when asked for, so the planner sees the simplest query. Values are
  -- parameters ($1…$10), never part of the text. The words' own condition follows below.
  if cardinality(_tags) > 0 then
    _where := _where || ' and array(select lower(x) from unnest(d.tags) x) @> $1';
  end if;
  if cardinality(_categories) > 0 then
    _where := _where || ' and lower(d.category) = all ($2)';
  end if;
  if cardinality(_states) > 0 then
    _where := _where || $w$ and (case when d.expiry_date is null then 'none'
                                      when d.expiry_date < $4 then 'overdue'
                                      when d.expiry_date <= $4 + 30 then 'soon'
                                      else 'later' end) = any ($5)$w$;
  end if;
  if _after is not null then
    _where := _where || ' and d.expiry_date > $6';
  end if;
  if _before is not null then
    _where := _where || ' and d.expiry_date < $7';
  end if;
  if uploaded_by_filter is not null then
    _where := _where || ' and d.uploaded_by = $8';
  end if;
  if cardinality(_sections) > 0 or cardinality(section_tags) > 0 then
    _where := _where || ' and (d.category = any ($9) or d.tags && $10)';
  end if;

  _where_filters := _where;

  -- Words: first the ids of the organisation's documents that hold them, from the search index
  -- alone (see the header), which the statements below take as a list; at most one more than
  -- the count limit, which tells that there are more.
  if _query is not null then
    -- What the index can answer: the words that must be there (querytree leaves out the
    -- excluded ones). Whether words form a phrase only their vector knows, and excluded words
    -- alone match nearly everything: those searches test each candidate's vector (below).
    _positive := pg_catalog.querytree(_query);
    if _positive = 'T' then
      _checked := true;
    elsif _positive ~ '<(-|[0-9]+)>' then
      _checked := true;
      -- The phrase's words anywhere in the document: every document with the phrase has them.
      _candidates := pg_catalog.regexp_replace(_positive, '<(-|[0-9]+)>', '&', 'g')::tsquery;
    else
      _candidates := _query;
    end if;
    -- An organisation whose vectors stored out of line take at most 16 MB together (most: a
    -- short text's vector is kept in its row) is searched as before, the planner choosing
    -- between the index and its texts: testing each of them reads little, and a common word's
    -- matches in other organisations are not read (see the header).
    _small := not _checked and coalesce((select b.bytes from private.search_vector_bytes b
                                          where b.organization_id = _organization), 0)
                               <= _read_budget / 4;
    if _candidates is not null and not _small then
      select m.ids, m.bytes into _matches, _read
        from private.search_index_matches(_organization, _candidates,
                                          case when not _checked then _count_limit + 1 end) m;
      -- More texts hold the words than are counted: they are found as the documents are read
      -- (below), not listed.
      _many := not _checked and pg_catalog.cardinality(_matches) > _count_limit;
    end if;
  end if;

  -- The documents policy's condition ($14); a search's matches: in a small organisation, the
  -- words ($3) as any plan may test them; else listed ($16), or, when there are many, tested on
  -- each document read, a vector in the row at once (a short text), one stored out of line
  -- within the budget of vectors read ($17), as a phrase is (below).
  _from := ' from public.documents d where d.organization_id = $14 and d.deleted_at is null';
  if _many or _small then
    _from := ' from public.documents d join public.document_texts t on t.document_id = d.id'
      || ' and t.organization_id = $14 where d.organization_id = $14 and d.deleted_at is null';
  end if;
  if _small then
    _where := _where || ' and t.search_vector @@ $3';
  elsif _many then
    _where := _where
      || ' and case when pg_catalog.pg_column_size(t.search_vector) <= 2048 then t.search_vector @@ $3'
      || ' when private.take_search_read(pg_catalog.pg_column_size(t.search_vector), $17)'
      || ' then t.search_vector @@ $3 else false end';
    perform pg_catalog.set_config('search.read_bytes', '0', true);
  elsif _candidates is not null then
    _where := _where || ' and d.id = any ($16)';
  end if;

  if _many or _small then
    -- Words not listed: the documents are counted as they are found, up to one more than the
    -- limit. In a small organisation that is the count. Words in more texts than are counted,
    -- found fewer times (filters, or the trash, left the others out) with budget to spare, are
    -- listed after all, to be ranked.
    execute 'select count(*) from (select 1' || _from || _where || ' limit $15) c'
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
            _organization, _count_limit + 1, _matches, _read_budget;
    if _total > _count_limit
       or (_many and pg_catalog.current_setting('search.read_bytes')::bigint > _read_budget) then
      _total := _count_limit;
      _capped := true;
    elsif _small then
      null; -- Exact; ranking reads at most the vectors stored out of line (`_read`, 16 MB).
    else
      _many := false;
      select m.ids, m.bytes into _matches, _read
        from private.search_index_matches(_organization, _candidates, null) m;
      _from := ' from public.documents d where d.organization_id = $14 and d.deleted_at is null';
      _where := _where_filters || ' and d.id = any ($16)';
    end if;
  end if;

  if _checked then
    -- A phrase, or excluded words alone: the candidates are tested newest first, each reading
    -- its vector, until the budget is spent. The matches found are the result, "more than" that
    -- many when candidates were left untested; the newest _count_limit + 1 are kept.
    execute format(
      $q$
      select coalesce((pg_catalog.array_agg(c.id order by c.n) filter (where c.matched))[1:$15], '{}'),
             coalesce(pg_catalog.sum(c.cost) filter (where c.matched), 0),
             coalesce(pg_catalog.bool_and(c.spent <= $17), true)
        from (select m.id, m.n, m.cost, m.spent,
                     case when m.spent <= $17 then m.search_vector @@ $3 else false end as matched
                from (select d.id, t.search_vector, %1$s as cost,
                             pg_catalog.row_number() over w as n, pg_catalog.sum(%1$s) over w as spent
                        from public.documents d join public.document_texts t on t.document_id = d.id
                       where d.organization_id = $14 and d.deleted_at is null %2$s
                      window w as (order by d.upload_date desc, d.created_at desc, d.id desc
                                   rows between unbounded preceding and current row)) m) c
      $q$,
      _read_cost, _where)
      into _matches, _read, _all_read
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
            _organization, _count_limit + 1, _matches, _read_budget;
    _total := pg_catalog.cardinality(_matches);
    _capped := _total > _count_limit or not _all_read;
    _total := least(_total, _count_limit);
    _where := ' and d.id = any ($16)';
  elsif _many or _small then
    null; -- Counted above.
  elsif _query is not null then
    -- Words: the listed matches that are in use and pass the filters (at most the limit: no
    -- more texts hold the words). What ranking them reads was summed with the list.
    execute 'select count(*)' || _from || _where
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
            _organization, _count_limit + 1, _matches, _read_budget;
  elsif _where = '' then
    -- Neither words nor filters: the organisation's counter.
    _total := private.live_document_count(_organization);
  else
    -- Filters alone: counted exactly.
    execute 'select count(*)' || _from || _where
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
            _organization, _count_limit + 1, _matches, _read_budget;
  end if;

  -- Ranking reads each match's vector: only all of the matches and within the budget; else
  -- the newest first.
  _ranked := _query is not null and not _capped and _read <= _read_budget;
  if _sort = 'relevance' and not _ranked then
    _sort := 'upload_date';
  end if;
  _descending := coalesce(sort_descending, _sort in ('relevance', 'upload_date', 'size'));
  -- %1$s is the direction, %2$s the alias of the documents (inside the page and outside it).
  _order := case _sort
    when 'relevance' then 'rank %1$s, %2$s.upload_date %1$s, %2$s.created_at %1$s, %2$s.id %1$s'
    when 'upload_date' then '%2$s.upload_date %1$s, %2$s.created_at %1$s, %2$s.id %1$s'
    when 'name' then '%2$s.name %1$s, %2$s.id %1$s'
    when 'category' then '%2$s.category %1$s, %2$s.name %1$s, %2$s.id %1$s'
    when 'expiry_date' then '%2$s.expiry_date %1$s nulls last, %2$s.id %1$s'
    when 'size' then '%2$s.size %1$s, %2$s.id %1$s'
    when 'status' then '%2$s.status %1$s, %2$s.upload_date %1$s, %2$s.id %1$s'
  end;
  if _order is null then
    raise exception 'Cannot sort by %', _sort;
  end if;
  _direction := case when _descending then 'desc' else 'asc' end;

  -- The page: its documents in order, with their rank. Words in many texts are tested on the
  -- documents read for the page, with a budget of their own.
  if _many or _small then
    perform pg_catalog.set_config('search.read_bytes', '0', true);
  end if;
  execute format(
    $q$
    select coalesce(pg_catalog.array_agg(p.id order by %1$s), '{}'),
           coalesce(pg_catalog.array_agg(p.rank order by %1$s), '{}')
      from (select d.*, %2$s as rank %3$s %4$s order by %5$s limit $12 offset $13) p
    $q$,
    format(_order, _direction, 'p'),
    case when _ranked then 'ts_rank(t.search_vector, $3)' else 'null::real' end,
    case when _ranked
      then ' from public.documents d join public.document_texts t on t.document_id = d.id'
           || ' and t.organization_id = $14 where d.organization_id = $14 and d.deleted_at is null'
      else _from end,
    _where, format(_order, _direction, 'd'))
    into _page, _ranks
    using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
          _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
          _organization, _count_limit + 1, _matches, _read_budget;

  -- Then its rows, with their snippets and uploader names: a snippet reads the text, so it is
  -- made for the rows shown only, from a window of it around the words. Each looks for them in
  -- the beginning of the text, up to 100,000 characters, and all of a page's at most 1,000,000
  -- together (10,000 each for a page of 100, 20,000 for the app's 50).
  _pattern := private.search_snippet_pattern(_query);
  _scan := least(100000, 1000000 / greatest(pg_catalog.cardinality(_page), 1));
  return query
    select p.id, p.organization_id, p.name, p.category, p.expiry_date, p.size, p.status,
           p.file_path, p.tags, p.description, p.uploaded_by, u.full_name, p.created_at,
           p.upload_date, p.updated_at, x.state, x.reason,
           case when strpos(h.snippet, '<mark>') > 0 then h.snippet end,
           g.rank, _total, p.responsible_id, r.full_name, p.renewal_in_progress, p.renewal_note,
           _capped
      from unnest(_page, _ranks) with ordinality as g(id, rank, n)
      join public.documents p on p.id = g.id
      left join public.document_texts x on x.document_id = p.id
      left join public.user_profiles u on u.id = p.uploaded_by
      left join public.user_profiles r on r.id = p.responsible_id
      -- A snippet only where the description or the text holds the words (not the name alone),
      -- highlighted around the first place they are.
      left join lateral (
        select ts_headline('pg_catalog.english'::regconfig,
                           private.search_snippet_window(p.description, x.content, _pattern, _scan),
                           _query,
                           'MaxFragments=2, MinWords=5, MaxWords=18, StartSel=<mark>, StopSel=</mark>, FragmentDelimiter=" … "')
                 as snippet
         where _query is not null
      ) h on true
     order by g.n;
end
$$;

revoke all on function public.search_documents(text, text, text, text, uuid, text, text[], text, boolean, integer, integer, integer, text[])
  from public, anon, authenticated;
grant execute on function public.search_documents(text, text, text, text, uuid, text, text[], text, boolean, integer, integer, integer, text[])
  to authenticated;
