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
