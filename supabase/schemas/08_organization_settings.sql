-- Organisation-wide settings that the specification keeps in one browser's local storage:
-- integration customisations, custom integrations, integration contacts and the corporate
-- status. Stored per organisation so the whole team sees the same (architecture.md, decisions).
-- The custom logo is the object `{organization_id}/logo.svg` in the bucket `branding`.
--
-- integration_key is the integration's name lower-cased with runs of non-alphanumerics replaced
-- by `-` (the specification's "lower-cased, hyphenated key").

-- ============================================================================================
-- Tables
-- ============================================================================================
-- Master admins' edits of a built-in integration card, one row per integration.
create table public.integration_customizations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  integration_key text not null
    constraint integration_customizations_key_check check (
      integration_key ~ '^[a-z0-9-]{1,200}$' and integration_key ~ '[a-z0-9]'
    ),
  name text not null
    constraint integration_customizations_name_check check (
      name ~ '[^[:space:]]' and char_length(name) <= 200
    ),
  description text not null
    constraint integration_customizations_description_check check (
      description ~ '[^[:space:]]' and char_length(description) <= 2000
    ),
  url text not null
    constraint integration_customizations_url_check check (
      url ~ '^https?://[^[:space:]]+$' and char_length(url) <= 2048
    ),
  -- The specification's categories for editing an integration.
  category text not null
    constraint integration_customizations_category_check check (category in (
      'HRIS', 'Payroll', 'Benefits', 'Safety', 'Insurance', 'Accounting', 'Invoicing', 'Free',
      'Legal Services', 'E-Signature', 'Practice Management', 'Contract Management',
      'Compliance', 'Design', 'Professional', 'UI/UX', 'Monitoring', 'Management', 'Scheduling',
      'Enterprise', 'Visual', 'Internal', 'Email Marketing', 'Video', 'Volunteer',
      'Opportunities', 'Streaming', 'Podcast', 'Custom'
    )),
  tags text[] not null default '{}'
    constraint integration_customizations_tags_check check (
      cardinality(tags) <= 50 and array_position(tags, null) is null
    ),
  note text constraint integration_customizations_note_length check (char_length(note) <= 2000),
  updated_at timestamptz not null default now(),
  constraint integration_customizations_organization_key unique (organization_id, integration_key)
);

-- Integrations that master admins add to an operations category. The defaults are the
-- specification's starting values of a new integration.
create table public.custom_integrations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  operations_category text not null
    constraint custom_integrations_operations_category_check check (operations_category in (
      'hr', 'accounting', 'communications', 'legal', 'branding', 'social-media',
      'volunteer-management', 'streaming', 'it'
    )),
  name text not null default 'New Integration'
    constraint custom_integrations_name_check check (
      name ~ '[^[:space:]]' and char_length(name) <= 200
    ),
  description text not null default 'Custom integration for your organization'
    constraint custom_integrations_description_check check (
      description ~ '[^[:space:]]' and char_length(description) <= 2000
    ),
  url text not null default 'https://example.com'
    constraint custom_integrations_url_check check (
      url ~ '^https?://[^[:space:]]+$' and char_length(url) <= 2048
    ),
  category text not null default 'Custom'
    constraint custom_integrations_category_check check (category in (
      'HRIS', 'Payroll', 'Benefits', 'Safety', 'Insurance', 'Accounting', 'Invoicing', 'Free',
      'Legal Services', 'E-Signature', 'Practice Management', 'Contract Management',
      'Compliance', 'Design', 'Professional', 'UI/UX', 'Monitoring', 'Management', 'Scheduling',
      'Enterprise', 'Visual', 'Internal', 'Email Marketing', 'Video', 'Volunteer',
      'Opportunities', 'Streaming', 'Podcast', 'Custom'
    )),
  tags text[] not null default '{}'
    constraint custom_integrations_tags_check check (
      cardinality(tags) <= 50 and array_position(tags, null) is null
    ),
  note text constraint custom_integrations_note_length check (char_length(note) <= 2000),
  supports_oauth boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- A contact person per integration (only the name counts for "Active Contacts").
create table public.integration_contacts (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  integration_key text not null
    constraint integration_contacts_key_check check (
      integration_key ~ '^[a-z0-9-]{1,200}$' and integration_key ~ '[a-z0-9]'
    ),
  name text constraint integration_contacts_name_length check (char_length(name) <= 200),
  title text constraint integration_contacts_title_length check (char_length(title) <= 200),
  email text constraint integration_contacts_email_length check (char_length(email) <= 254),
  phone text constraint integration_contacts_phone_length check (char_length(phone) <= 50),
  company text constraint integration_contacts_company_length check (char_length(company) <= 200),
  notes text constraint integration_contacts_notes_length check (char_length(notes) <= 5000),
  updated_at timestamptz not null default now(),
  constraint integration_contacts_organization_key unique (organization_id, integration_key)
);

-- The legal page's Corporate Status Dashboard, one row per organisation.
create table public.corporate_status (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  entity_name text constraint corporate_status_entity_name_length check (char_length(entity_name) <= 300),
  entity_type text
    constraint corporate_status_entity_type_check check (entity_type in (
      'Non-Profit Corporation', 'Corporation', 'LLC', 'Partnership', 'Other'
    )),
  status text
    constraint corporate_status_status_check check (status in (
      'Active', 'Inactive', 'Suspended', 'Unknown'
    )),
  filing_date date,
  next_due_date date,
  annual_report_status text
    constraint corporate_status_annual_report_status_check check (annual_report_status in (
      'Current', 'Due Soon', 'Overdue', 'Unknown'
    )),
  last_updated timestamptz not null default now()
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
-- integration_customizations and integration_contacts: covered by their unique
-- (organization_id, integration_key); corporate_status: by its primary key.
create index custom_integrations_organization_id_category_idx
  on public.custom_integrations (organization_id, operations_category, created_at);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create function private.touch_last_updated()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.last_updated := now();
  return new;
end
$$;

create trigger integration_customizations_touch_updated_at
  before update on public.integration_customizations
  for each row execute function private.touch_updated_at();
create trigger custom_integrations_touch_updated_at
  before update on public.custom_integrations
  for each row execute function private.touch_updated_at();
create trigger integration_contacts_touch_updated_at
  before update on public.integration_contacts
  for each row execute function private.touch_updated_at();
create trigger corporate_status_touch_last_updated
  before update on public.corporate_status
  for each row execute function private.touch_last_updated();

-- ============================================================================================
-- Policies
-- ============================================================================================
-- Every active member reads the settings; integration details are edited by master admins,
-- contacts and the corporate status by admins (specification §6).
alter table public.integration_customizations enable row level security;
alter table public.custom_integrations enable row level security;
alter table public.integration_contacts enable row level security;
alter table public.corporate_status enable row level security;

create policy "members read their organisation's integration customisations"
  on public.integration_customizations for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));
create policy "master admins add integration customisations"
  on public.integration_customizations for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('master_admin')));
create policy "master admins edit integration customisations"
  on public.integration_customizations for update to authenticated
  using (organization_id = (select private.caller_organization_id('master_admin')))
  with check (organization_id = (select private.caller_organization_id('master_admin')));
create policy "master admins remove integration customisations"
  on public.integration_customizations for delete to authenticated
  using (organization_id = (select private.caller_organization_id('master_admin')));

create policy "members read their organisation's custom integrations"
  on public.custom_integrations for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));
create policy "master admins add custom integrations"
  on public.custom_integrations for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('master_admin')));
create policy "master admins edit custom integrations"
  on public.custom_integrations for update to authenticated
  using (organization_id = (select private.caller_organization_id('master_admin')))
  with check (organization_id = (select private.caller_organization_id('master_admin')));
create policy "master admins remove custom integrations"
  on public.custom_integrations for delete to authenticated
  using (organization_id = (select private.caller_organization_id('master_admin')));

create policy "members read their organisation's integration contacts"
  on public.integration_contacts for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));
create policy "admins add integration contacts"
  on public.integration_contacts for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('admin')));
create policy "admins edit integration contacts"
  on public.integration_contacts for update to authenticated
  using (organization_id = (select private.caller_organization_id('admin')))
  with check (organization_id = (select private.caller_organization_id('admin')));
create policy "admins remove integration contacts"
  on public.integration_contacts for delete to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

create policy "members read their organisation's corporate status"
  on public.corporate_status for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));
create policy "admins record the corporate status"
  on public.corporate_status for insert to authenticated
  with check (organization_id = (select private.caller_organization_id('admin')));
create policy "admins edit the corporate status"
  on public.corporate_status for update to authenticated
  using (organization_id = (select private.caller_organization_id('admin')))
  with check (organization_id = (select private.caller_organization_id('admin')));
create policy "admins clear the corporate status"
  on public.corporate_status for delete to authenticated
  using (organization_id = (select private.caller_organization_id('admin')));

-- ============================================================================================
-- Functions
-- ============================================================================================
-- None: these tables are plain reads and writes under the policies above.

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.integration_customizations, public.custom_integrations,
  public.integration_contacts, public.corporate_status from anon, authenticated;
grant select, insert, update, delete on public.integration_customizations,
  public.custom_integrations, public.integration_contacts, public.corporate_status
  to authenticated;

revoke all on function private.touch_last_updated() from public, anon, authenticated;

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
  _unknown text;
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
  -- The categories are the organisation's own (issue 23), spelled as it spells them; a name
  -- it does not keep is refused, except one the department already had (kept as it was).
  new.categories := array(
    select coalesce((select c.name from public.document_categories c
                     where c.organization_id = new.organization_id and lower(c.name) = lower(v.x)
                     order by c.name = v.x desc limit 1), v.x)
    from unnest(new.categories) with ordinality as v (x, o)
    order by v.o);
  select v.x into _unknown from unnest(new.categories) v (x)
   where not exists (select 1 from public.document_categories c
                     where c.organization_id = new.organization_id and c.name = v.x)
     and not (tg_op = 'UPDATE' and v.x = any (old.categories))
   limit 1;
  if _unknown is not null then
    raise exception 'Unknown category: %', _unknown using errcode = '23514';
  end if;
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
  using (organization_id = (select private.caller_organization_id('viewer')));

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
    'email_ready', private.organization_delivery(_me.organization_id) = 'smtp',
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

-- ============================================================================================
-- Issue 24: the logo as PNG, JPEG or WebP
-- ============================================================================================
-- Admins ask for the uploaded image to become the logo; one conversion at a time per
-- organisation, tried once.
create function public.convert_logo()
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
    raise exception 'Only admins can change the logo';
  end if;
  perform private.require_second_factor(_me.id);
  if not exists (select 1 from storage.objects o
                 where o.bucket_id = 'branding' and o.name = _me.organization_id || '/logo-source') then
    raise exception 'Upload the image first';
  end if;
  perform private.enqueue_job('branding.convert-logo', '{}'::jsonb, _me.organization_id,
                              'logo:' || _me.organization_id, now(), 1);
end
$$;

-- How the organisation's latest conversion went: `working`, `done`, or `failed` with the reason
-- in words for the admin; null when there was none.
create function public.logo_conversion()
returns jsonb
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _job private.jobs;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Only admins can change the logo';
  end if;
  select * into _job from private.jobs j
  where j.kind = 'branding.convert-logo' and j.organization_id = _me.organization_id
  order by j.id desc limit 1;
  if not found then
    return null;
  end if;
  return jsonb_build_object(
    'status', case when _job.finished_at is not null then 'done'
                   when _job.failed_at is not null then 'failed'
                   else 'working' end,
    'error', case when _job.failed_at is not null then _job.last_error end);
end
$$;

revoke all on function public.convert_logo() from public, anon, authenticated;
revoke all on function public.logo_conversion() from public, anon, authenticated;
grant execute on function public.convert_logo() to authenticated;
grant execute on function public.logo_conversion() to authenticated;
