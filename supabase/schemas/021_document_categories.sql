-- The organisation's own document categories, its groups of members, and who may view or edit
-- the documents of each category (issue 23). The rule, written once here:
--
-- An open category (the default) is viewed by every active member and edited by every active
-- member but Viewers. A restricted category is viewed and edited by master admins (they grant
-- the access), and by anyone else only as its rules say: a rule names a group or a role (the
-- member's own role, exactly) with `view` or `edit`; `edit` includes `view`; a Viewer never
-- edits. Admins have no implicit access to a restricted category. What a member may not view
-- answers like a row that does not exist, on every path (documents, their texts, versions,
-- history, trash, search, counters, stored files, links, mail, feeds, exports).
--
-- Cost: the policies ask once per statement for the caller's hidden (and not editable)
-- category names as an array (`(select private.caller_hidden_categories())`); with nothing
-- restricted the arrays are empty and every plan stays the organisation index's.
--
-- A category is referred to by its name in documents.category (a foreign key on
-- (organization_id, name), `on update cascade`), so a rename reaches every document at once.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.document_categories (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint document_categories_name_length check (char_length(name) between 1 and 100)
    constraint document_categories_name_trimmed check (name !~ '^[[:space:]]|[[:space:]]$'),
  position integer not null default 0,
  -- A retired category leaves the pickers; its documents keep it.
  retired_at timestamptz,
  -- Restricted: only the rules of category_access (and master admins) open it.
  restricted boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint document_categories_organization_id_name_key unique (organization_id, name)
);

create table public.member_groups (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint member_groups_name_length check (char_length(name) between 1 and 100)
    constraint member_groups_name_trimmed check (name !~ '^[[:space:]]|[[:space:]]$'),
  created_at timestamptz not null default now(),
  constraint member_groups_organization_id_name_key unique (organization_id, name)
);

create table public.member_group_members (
  group_id uuid not null references public.member_groups (id) on delete cascade,
  user_id uuid not null references public.user_profiles (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  added_at timestamptz not null default now(),
  primary key (group_id, user_id)
);

create table public.category_access (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  category_id uuid not null references public.document_categories (id) on delete cascade,
  group_id uuid references public.member_groups (id) on delete cascade,
  role text constraint category_access_role_check
    check (role in ('viewer', 'user', 'admin', 'master_admin')),
  access text not null constraint category_access_access_check check (access in ('view', 'edit')),
  constraint category_access_group_or_role check ((group_id is null) <> (role is null))
);

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index document_categories_organization_id_position_idx
  on public.document_categories (organization_id, position, name);
create index member_groups_organization_id_idx on public.member_groups (organization_id, name);
-- A member's groups (the access lookup) and an organisation's memberships.
create index member_group_members_user_id_idx on public.member_group_members (user_id);
create index member_group_members_organization_id_idx
  on public.member_group_members (organization_id);
create index category_access_category_id_idx on public.category_access (category_id);
create index category_access_group_id_idx on public.category_access (group_id);
create index category_access_organization_id_idx on public.category_access (organization_id);

-- ============================================================================================
-- Helpers
-- ============================================================================================
create trigger document_categories_touch_updated_at
  before update on public.document_categories
  for each row execute function private.touch_updated_at();

-- Every table member_category_access reads marks the caller's context written
-- (private.caller_context); member_groups too, whose deletion removes rules and members.
create trigger document_categories_caller_context_written
  after insert or update or delete or truncate on public.document_categories
  for each statement execute function private.caller_context_written();

create trigger member_groups_caller_context_written
  after insert or update or delete or truncate on public.member_groups
  for each statement execute function private.caller_context_written();

create trigger member_group_members_caller_context_written
  after insert or update or delete or truncate on public.member_group_members
  for each statement execute function private.caller_context_written();

create trigger category_access_caller_context_written
  after insert or update or delete or truncate on public.category_access
  for each statement execute function private.caller_context_written();

-- The specification's 14 categories, in its order: every organisation's starting list.
create function private.starting_document_categories()
returns text[]
language sql
immutable
set search_path = ''
as $$
  select array[
    'HR', 'Accounting', 'Branding', 'Social Media', 'Communications',
    'Volunteer/People Management', 'Streaming: Video & Podcast', 'Reports', 'Governance',
    'Legal', 'Funding', 'Financial', 'Operations', 'Other'
  ]
$$;

create function private.seed_document_categories()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.document_categories (organization_id, name, position)
  select new.id, c.name, c.n
    from unnest(private.starting_document_categories()) with ordinality c (name, n)
  on conflict (organization_id, name) do nothing;
  return null;
end
$$;

create trigger organizations_seed_document_categories
  after insert on public.organizations
  for each row execute function private.seed_document_categories();

-- What the rules of a restricted category grant this member (their own role exactly, or a group
-- they are in): 'edit' when one of those rules says edit, 'view' when they name the member but
-- none says edit, null when none does. Part of the rule's one statement
-- (private.member_category_access_rows), which alone asks it, for restricted categories only: as
-- a lateral query of that statement it was set up on every call, restricted categories or not,
-- about a quarter of the caller's context on PGlite for the organisations (most) that restrict
-- none.
create function private.category_rules_grant(category_id uuid, role text, user_id uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _grant text;
begin
  select case when bool_or(a.access = 'edit') then 'edit' else 'view' end into _grant
    from public.category_access a
   where a.category_id = category_rules_grant.category_id
     and (a.role = category_rules_grant.role
          or a.group_id in (select m.group_id from public.member_group_members m
                             where m.user_id = category_rules_grant.user_id))
  having count(*) > 0;
  return _grant;
end
$$;

-- Every category of every active member's organisation with what that member may do there
-- (`user_id`); no rows for a member who is not active in an organisation. The one statement of
-- the rule (see the header; the rules of a restricted category are read by category_rules_grant
-- above, for this statement only); member_category_access below and the caller's context
-- (private.caller_context) read it for one member, and every other helper asks the function.
-- A view, so that the context's statement takes it in place, planned with it: read through the
-- set-returning function, its `return query` and the function's entry cost each computation of
-- the context about 30 µs on PGlite, half of this part. security_invoker: read with the rights
-- of whoever reads it (the definer functions above), and no API role may read it.
create view private.member_category_access_rows
with (security_invoker = true)
as
  select p.id as user_id, c.id, c.name, c.position, c.retired_at is not null as retired,
         c.restricted,
         not c.restricted or p.role = 'master_admin' or r.granted is not null as can_view,
         p.role <> 'viewer'
           and (not c.restricted or p.role = 'master_admin' or coalesce(r.granted = 'edit', false))
           as can_edit
    from public.user_profiles p
    join public.document_categories c on c.organization_id = p.organization_id
   cross join lateral (
      select case when c.restricted
                  then private.category_rules_grant(c.id, p.role, p.id) end as granted
    ) r
   where p.is_active and p.organization_id is not null;

-- Every category of the member's organisation with what this member may do there
-- (private.member_category_access_rows); no rows for a member who is not active in an
-- organisation. PL/pgSQL so that its plan is kept for the session (see
-- private.two_factor_required_for): policies read it on every statement.
create function private.member_category_access(user_id uuid)
returns table (
  id uuid, name text, "position" integer, retired boolean, restricted boolean,
  can_view boolean, can_edit boolean
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return query
  select a.id, a.name, a.position, a.retired, a.restricted, a.can_view, a.can_edit
    from private.member_category_access_rows a
   where a.user_id = member_category_access.user_id;
end
$$;

-- The caller's organisation's categories the caller may not view, by name; empty when none is
-- restricted (or the caller is no active member: the policies' organisation test refuses
-- those). Policies call it as `(select private.caller_hidden_categories())`, once per
-- statement; the caller's context, computed from member_category_access, is kept for the
-- snapshot (private.caller_context).
create function private.caller_hidden_categories()
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (private.caller_context())[5]::text[];
end
$$;

-- The caller's organisation's categories the caller may not add to or change (a Viewer: all).
create function private.caller_uneditable_categories()
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (private.caller_context())[6]::text[];
end
$$;

-- The caller as an admin (or master admin) of their organisation, for the functions below.
create function private.caller_admin()
returns public.user_profiles
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
    raise exception 'Only admins can manage categories and groups' using errcode = '42501';
  end if;
  return _me;
end
$$;

-- A category or group name as the functions store it: trimmed, 1 to 100 characters.
create function private.category_or_group_name(value text, what text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  _name text := private.trim_whitespace(coalesce(value, ''));
begin
  if _name = '' then
    raise exception '% name is required', what;
  end if;
  if char_length(_name) > 100 then
    raise exception '% name must be at most 100 characters', what;
  end if;
  return _name;
end
$$;

-- Whether `user_id` holds at least the access group `group_id` grants, in every restricted
-- category whose rules name the group: an admin may change only such groups (no admin can put
-- themselves, or anyone, into access they do not have). Master admins always may.
create function private.member_holds_group_access(user_id uuid, group_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select not exists (
    select 1
      from public.category_access r
      join public.document_categories c on c.id = r.category_id and c.restricted
      left join private.member_category_access(member_holds_group_access.user_id) m
        on m.id = c.id
     where r.group_id = member_holds_group_access.group_id
       and not coalesce(case r.access when 'edit' then m.can_edit else m.can_view end, false)
  )
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.document_categories enable row level security;
alter table public.member_groups enable row level security;
alter table public.member_group_members enable row level security;
alter table public.category_access enable row level security;

-- The names of restricted categories are not secret; their documents are.
create policy "members read their organisation's categories"
  on public.document_categories for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

create policy "members read their organisation's groups"
  on public.member_groups for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

create policy "members read their organisation's group members"
  on public.member_group_members for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

create policy "members read their organisation's category access rules"
  on public.category_access for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

-- ============================================================================================
-- Functions
-- ============================================================================================
-- The caller's categories in order, with what the caller may do in each: pickers for upload
-- and move offer `can_edit and not retired`, filters `can_view`.
create function public.my_document_categories()
returns table (
  id uuid, name text, "position" integer, retired boolean, restricted boolean,
  can_view boolean, can_edit boolean
)
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  return query
    select a.id, a.name, a.position, a.retired, a.restricted, a.can_view, a.can_edit
      from private.member_category_access(_me.id) a
     order by a.position, a.name;
end
$$;

create function public.create_document_category(name text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_admin();
  _name text := private.category_or_group_name(create_document_category.name, 'Category');
  _id uuid;
begin
  insert into public.document_categories (organization_id, name, position)
  values (_me.organization_id, _name,
          coalesce((select max(c.position) from public.document_categories c
                     where c.organization_id = _me.organization_id), 0) + 1)
  returning id into _id;
  return _id;
exception
  when unique_violation then
    raise exception 'A category with this name already exists';
end
$$;

-- A rename reaches every document through the foreign key; the documents' history records
-- nothing per document (private.log_document_change reads steward.category_rename).
create function public.rename_document_category(category_id uuid, new_name text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_admin();
  _name text := private.category_or_group_name(rename_document_category.new_name, 'Category');
  _old text;
begin
  select c.name into _old from public.document_categories c
   where c.id = rename_document_category.category_id and c.organization_id = _me.organization_id;
  if _old is null then
    raise exception 'Category not found';
  end if;
  perform set_config('steward.category_rename', 'on', true);
  -- Documents follow through their foreign key; the department pages fed by the category
  -- (issue 24) and the requests filing into it (issue 25) name it as text and follow here.
  update public.document_categories c set name = _name
   where c.id = rename_document_category.category_id;
  update public.departments d set categories = pg_catalog.array_replace(d.categories, _old, _name)
   where d.organization_id = _me.organization_id and _old = any (d.categories);
  update public.document_requests q set category = _name
   where q.organization_id = _me.organization_id and q.category = _old;
  perform set_config('steward.category_rename', '', true);
exception
  when unique_violation then
    raise exception 'A category with this name already exists';
end
$$;

create function private.set_category_retired(category_id uuid, retired boolean)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_admin();
begin
  update public.document_categories c
     set retired_at = case when retired then coalesce(c.retired_at, now()) end
   where c.id = set_category_retired.category_id and c.organization_id = _me.organization_id;
  if not found then
    raise exception 'Category not found';
  end if;
end
$$;

create function public.retire_document_category(category_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.set_category_retired(category_id, true)
$$;

create function public.unretire_document_category(category_id uuid)
returns void
language sql
security definer
set search_path = ''
as $$
  select private.set_category_retired(category_id, false)
$$;

-- `category_ids`: every category of the organisation, each once, in the new order.
create function public.reorder_document_categories(category_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_admin();
begin
  if category_ids is null
     or cardinality(category_ids) <> (select count(distinct x) from unnest(category_ids) x)
     or array(select c.id from public.document_categories c
               where c.organization_id = _me.organization_id order by c.id)
        <> array(select x from unnest(category_ids) x order by x) then
    raise exception 'The new order must name every category once';
  end if;
  update public.document_categories c set position = o.n
    from unnest(category_ids) with ordinality o (id, n)
   where c.id = o.id and c.position is distinct from o.n::integer;
end
$$;

create function public.create_member_group(name text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_admin();
  _id uuid;
begin
  insert into public.member_groups (organization_id, name)
  values (_me.organization_id, private.category_or_group_name(create_member_group.name, 'Group'))
  returning id into _id;
  return _id;
exception
  when unique_violation then
    raise exception 'A group with this name already exists';
end
$$;

create function public.rename_member_group(group_id uuid, new_name text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_admin();
begin
  update public.member_groups g
     set name = private.category_or_group_name(rename_member_group.new_name, 'Group')
   where g.id = rename_member_group.group_id and g.organization_id = _me.organization_id;
  if not found then
    raise exception 'Group not found';
  end if;
exception
  when unique_violation then
    raise exception 'A group with this name already exists';
end
$$;

-- The group of the caller's organisation that the caller may change (its members, or delete
-- it): master admins any, admins those granting no access they lack (see
-- member_holds_group_access). Locked until the end of the transaction.
create function private.changeable_group(group_id uuid)
returns public.member_groups
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_admin();
  _group public.member_groups;
begin
  select * into _group from public.member_groups g
   where g.id = changeable_group.group_id and g.organization_id = _me.organization_id
  for update;
  if not found then
    raise exception 'Group not found';
  end if;
  if _me.role <> 'master_admin' and not private.member_holds_group_access(_me.id, _group.id) then
    raise exception 'You can only change groups that give access you have yourself'
      using errcode = '42501';
  end if;
  return _group;
end
$$;

create function public.delete_member_group(group_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _group public.member_groups := private.changeable_group(delete_member_group.group_id);
begin
  delete from public.member_groups g where g.id = _group.id;
end
$$;

-- Replaces the group's members with `user_ids` (members of the organisation, active or not).
create function public.set_member_group_members(group_id uuid, user_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _group public.member_groups := private.changeable_group(set_member_group_members.group_id);
  _ids uuid[] := array(select distinct x from unnest(coalesce(user_ids, '{}')) x
                       where x is not null);
begin
  if cardinality(_ids) > 1000 then
    raise exception 'A group can have at most 1000 members';
  end if;
  if (select count(*) from public.user_profiles p
       where p.id = any (_ids) and p.organization_id = _group.organization_id)
     <> cardinality(_ids) then
    raise exception 'Some of the members were not found';
  end if;
  delete from public.member_group_members m
   where m.group_id = _group.id and m.user_id <> all (_ids);
  insert into public.member_group_members (group_id, user_id, organization_id)
  select _group.id, x, _group.organization_id from unnest(_ids) x
  on conflict do nothing;
end
$$;

-- Master admins set whether a category is restricted and its rules (which replace the
-- category's rules, all at once): `[{"group_id": "…", "access": "view"}, {"role": "admin",
-- "access": "edit"}, …]`. The rules of an open category are kept, unused, so that restricting
-- it again brings them back.
create function public.set_category_access(category_id uuid, restricted boolean, rules jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _category public.document_categories;
  _rule jsonb;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  if _me.role <> 'master_admin' then
    raise exception 'Only master admins can change who may see a category' using errcode = '42501';
  end if;
  if set_category_access.restricted is null then
    raise exception 'Say whether the category is restricted';
  end if;
  if rules is not null and jsonb_typeof(rules) <> 'array' then
    raise exception 'Rules must be a list';
  end if;
  select * into _category from public.document_categories c
   where c.id = set_category_access.category_id and c.organization_id = _me.organization_id
  for update;
  if not found then
    raise exception 'Category not found';
  end if;
  if jsonb_array_length(coalesce(rules, '[]')) > 200 then
    raise exception 'A category can have at most 200 rules';
  end if;
  for _rule in select x from jsonb_array_elements(coalesce(rules, '[]')) x loop
    if jsonb_typeof(_rule) <> 'object' or coalesce(_rule ->> 'access', '') not in ('view', 'edit') then
      raise exception 'Access must be view or edit';
    end if;
    if (_rule ? 'group_id') = (_rule ? 'role') then
      raise exception 'A rule names either a group or a role';
    end if;
    if _rule ? 'role' and coalesce(_rule ->> 'role', '') not in ('viewer', 'user', 'admin', 'master_admin') then
      raise exception 'Role must be viewer, user, admin or master_admin';
    end if;
    if _rule ? 'group_id' and not exists (
         select 1 from public.member_groups g
          where g.id::text = _rule ->> 'group_id' and g.organization_id = _me.organization_id) then
      raise exception 'Group not found';
    end if;
  end loop;

  update public.document_categories c set restricted = set_category_access.restricted
   where c.id = _category.id;
  delete from public.category_access a where a.category_id = _category.id;
  insert into public.category_access (organization_id, category_id, group_id, role, access)
  select distinct _me.organization_id, _category.id, (x ->> 'group_id')::uuid, x ->> 'role',
         x ->> 'access'
    from jsonb_array_elements(coalesce(rules, '[]')) x;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.document_categories, public.member_groups, public.member_group_members,
  public.category_access from anon, authenticated;
grant select on public.document_categories, public.member_groups, public.member_group_members,
  public.category_access to authenticated;

revoke all on function private.starting_document_categories() from public, anon, authenticated;
revoke all on function private.seed_document_categories() from public, anon, authenticated;
revoke all on function private.category_rules_grant(uuid, text, uuid) from public, anon, authenticated;
revoke all on function private.member_category_access(uuid) from public, anon, authenticated;
revoke all on private.member_category_access_rows from public, anon, authenticated;
revoke all on function private.caller_hidden_categories() from public, anon, authenticated;
revoke all on function private.caller_uneditable_categories() from public, anon, authenticated;
revoke all on function private.caller_admin() from public, anon, authenticated;
revoke all on function private.category_or_group_name(text, text) from public, anon, authenticated;
revoke all on function private.member_holds_group_access(uuid, uuid) from public, anon, authenticated;
revoke all on function private.set_category_retired(uuid, boolean) from public, anon, authenticated;
revoke all on function private.changeable_group(uuid) from public, anon, authenticated;
-- Policies run their helpers as the querying role (the schema itself stays closed to it).
grant execute on function private.caller_hidden_categories() to authenticated;
grant execute on function private.caller_uneditable_categories() to authenticated;

revoke all on function public.my_document_categories() from public, anon, authenticated;
revoke all on function public.create_document_category(text) from public, anon, authenticated;
revoke all on function public.rename_document_category(uuid, text) from public, anon, authenticated;
revoke all on function public.retire_document_category(uuid) from public, anon, authenticated;
revoke all on function public.unretire_document_category(uuid) from public, anon, authenticated;
revoke all on function public.reorder_document_categories(uuid[]) from public, anon, authenticated;
revoke all on function public.create_member_group(text) from public, anon, authenticated;
revoke all on function public.rename_member_group(uuid, text) from public, anon, authenticated;
revoke all on function public.delete_member_group(uuid) from public, anon, authenticated;
revoke all on function public.set_member_group_members(uuid, uuid[]) from public, anon, authenticated;
revoke all on function public.set_category_access(uuid, boolean, jsonb) from public, anon, authenticated;
grant execute on function public.my_document_categories() to authenticated;
grant execute on function public.create_document_category(text) to authenticated;
grant execute on function public.rename_document_category(uuid, text) to authenticated;
grant execute on function public.retire_document_category(uuid) to authenticated;
grant execute on function public.unretire_document_category(uuid) to authenticated;
grant execute on function public.reorder_document_categories(uuid[]) to authenticated;
grant execute on function public.create_member_group(text) to authenticated;
grant execute on function public.rename_member_group(uuid, text) to authenticated;
grant execute on function public.delete_member_group(uuid) to authenticated;
grant execute on function public.set_member_group_members(uuid, uuid[]) to authenticated;
grant execute on function public.set_category_access(uuid, boolean, jsonb) to authenticated;
