-- TEMPORARY stub of issue 23's database side for the app's tests (/work/prompts/i23-contract.md):
-- the organisation's own categories, groups and access per category, with their functions. It
-- implements what the app calls and how `my_document_categories()` answers; the enforcement on
-- documents' other paths is the database engineer's part, which replaces this file.

-- ============================================================================================
-- Tables
-- ============================================================================================
create table public.document_categories (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint document_categories_name_length check (char_length(name) between 1 and 100),
  "position" integer not null default 0,
  retired_at timestamptz,
  restricted boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint document_categories_organization_id_name_key unique (organization_id, name)
);

create table public.member_groups (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  name text not null
    constraint member_groups_name_length check (char_length(name) between 1 and 100),
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

-- A document's category is one of its organisation's, by name; a rename reaches every document.
alter table public.documents
  add constraint documents_category_fkey foreign key (organization_id, category)
  references public.document_categories (organization_id, name) on update cascade;

-- ============================================================================================
-- Indexes
-- ============================================================================================
create index member_group_members_user_id_idx on public.member_group_members (user_id);
create index member_group_members_organization_id_idx
  on public.member_group_members (organization_id);
create index member_groups_organization_id_idx on public.member_groups (organization_id);
create index category_access_category_id_idx on public.category_access (category_id);
create index category_access_group_id_idx on public.category_access (group_id);
create index category_access_organization_id_idx on public.category_access (organization_id);

-- ============================================================================================
-- Helpers
-- ============================================================================================
-- The specification's 14 categories, in its order: every organisation's starting list.
create function private.seed_document_categories()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.document_categories (organization_id, name, "position")
  select new.id, c.name, c.ordinality::integer
  from unnest(array[
    'HR', 'Accounting', 'Branding', 'Social Media', 'Communications',
    'Volunteer/People Management', 'Streaming: Video & Podcast', 'Reports', 'Governance',
    'Legal', 'Funding', 'Financial', 'Operations', 'Other'
  ]) with ordinality as c (name, ordinality);
  return new;
end
$$;

create trigger organizations_seed_document_categories
  after insert on public.organizations
  for each row execute function private.seed_document_categories();

create trigger document_categories_touch_updated_at
  before update on public.document_categories
  for each row execute function private.touch_updated_at();

-- 'edit', 'view' or null: what this member may do with the documents of this category.
create function private.member_category_access(user_id uuid, category_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when p.id is null then null
    when not c.restricted then case when p.role = 'viewer' then 'view' else 'edit' end
    when p.role = 'master_admin' then 'edit'
    when p.role <> 'viewer' and exists (
      select 1 from public.category_access a
      where a.category_id = c.id and a.access = 'edit'
        and (a.role = p.role or a.group_id in (
          select m.group_id from public.member_group_members m where m.user_id = p.id))
    ) then 'edit'
    when exists (
      select 1 from public.category_access a
      where a.category_id = c.id
        and (a.role = p.role or a.group_id in (
          select m.group_id from public.member_group_members m where m.user_id = p.id))
    ) then 'view'
  end
  from public.document_categories c
  left join public.user_profiles p
    on p.id = member_category_access.user_id and p.is_active
    and p.organization_id = c.organization_id
  where c.id = member_category_access.category_id
$$;

-- A new document or a move goes into a category that is in use and that the member may edit.
create function private.check_document_category()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _category public.document_categories;
begin
  -- A rename reaches documents through the foreign key's cascade: nothing moves.
  if pg_trigger_depth() > 1 then
    return new;
  end if;
  if tg_op = 'UPDATE' and new.category is not distinct from old.category then
    return new;
  end if;
  select * into _category from public.document_categories c
  where c.organization_id = new.organization_id and c.name = new.category;
  if found and _category.retired_at is not null then
    raise exception 'This category is retired';
  end if;
  if found and auth.uid() is not null
    and private.member_category_access(auth.uid(), _category.id) is distinct from 'edit' then
    raise exception 'You do not have access to this category';
  end if;
  return new;
end
$$;

create trigger documents_check_category
  before insert or update of category on public.documents
  for each row execute function private.check_document_category();

-- The caller's admin profile, or the refusal.
create function private.caller_category_admin()
returns public.user_profiles
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Only admins can manage categories and groups';
  end if;
  return _me;
end
$$;

-- A name of 1 to 100 characters, trimmed.
create function private.valid_name(value text)
returns text
language plpgsql
immutable
set search_path = ''
as $$
declare
  _name text := private.trim_whitespace(coalesce(value, ''));
begin
  if _name = '' then
    raise exception 'Name is required';
  end if;
  if char_length(_name) > 100 then
    raise exception 'Name must be at most 100 characters';
  end if;
  return _name;
end
$$;

-- Whether an admin holds at least the access a group grants in every restricted category.
create function private.may_manage_group(me public.user_profiles, group_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select me.role = 'master_admin' or not exists (
    select 1
    from public.category_access a
    join public.document_categories c on c.id = a.category_id and c.restricted
    where a.group_id = may_manage_group.group_id
      and case private.member_category_access(me.id, c.id)
            when 'edit' then false
            when 'view' then a.access = 'edit'
            else true
          end
  )
$$;

-- ============================================================================================
-- Policies
-- ============================================================================================
alter table public.document_categories enable row level security;
alter table public.member_groups enable row level security;
alter table public.member_group_members enable row level security;
alter table public.category_access enable row level security;

create policy "members read their organisation's categories"
  on public.document_categories for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

create policy "members read their organisation's groups"
  on public.member_groups for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

create policy "members read their organisation's group members"
  on public.member_group_members for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

create policy "members read their organisation's category access"
  on public.category_access for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

do $$
declare
  _table text;
begin
  foreach _table in array array[
    'category_access', 'document_categories', 'member_group_members', 'member_groups'
  ] loop
    execute format(
      'create policy "second factor proved when enrolled or required" on public.%I as restrictive '
      'for all to authenticated using ((select private.second_factor_checked())) '
      'with check ((select private.second_factor_checked()))',
      _table);
  end loop;
end
$$;

-- ============================================================================================
-- Functions
-- ============================================================================================
-- The caller's categories in order, with what the caller may do in each: pickers offer
-- `can_edit and not retired`, filters `can_view`.
create function public.my_document_categories()
returns table (
  id uuid, name text, "position" integer, retired boolean, restricted boolean,
  can_view boolean, can_edit boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select c.id, c.name, c."position", c.retired_at is not null, c.restricted,
    a.access is not null, coalesce(a.access = 'edit', false)
  from public.document_categories c
  cross join lateral (
    select private.member_category_access((select auth.uid()), c.id) as access
  ) a
  where c.organization_id = (select private.caller_organization_id('viewer'))
  order by c."position", c.name
$$;

create function public.create_document_category(name text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_category_admin();
  _name text := private.valid_name(create_document_category.name);
  _id uuid;
begin
  if exists (
    select 1 from public.document_categories c
    where c.organization_id = _me.organization_id and lower(c.name) = lower(_name)
  ) then
    raise exception 'A category with this name already exists';
  end if;
  insert into public.document_categories (organization_id, name, "position")
  select _me.organization_id, _name, coalesce(max(c."position"), 0) + 1
  from public.document_categories c where c.organization_id = _me.organization_id
  returning id into _id;
  return _id;
end
$$;

create function public.rename_document_category(category_id uuid, new_name text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_category_admin();
  _name text := private.valid_name(new_name);
begin
  if exists (
    select 1 from public.document_categories c
    where c.organization_id = _me.organization_id and lower(c.name) = lower(_name)
      and c.id <> rename_document_category.category_id
  ) then
    raise exception 'A category with this name already exists';
  end if;
  update public.document_categories c set name = _name
  where c.id = rename_document_category.category_id and c.organization_id = _me.organization_id;
  if not found then
    raise exception 'Category not found';
  end if;
end
$$;

create function public.retire_document_category(category_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_category_admin();
begin
  update public.document_categories c set retired_at = coalesce(c.retired_at, now())
  where c.id = retire_document_category.category_id and c.organization_id = _me.organization_id;
  if not found then
    raise exception 'Category not found';
  end if;
end
$$;

create function public.unretire_document_category(category_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_category_admin();
begin
  update public.document_categories c set retired_at = null
  where c.id = unretire_document_category.category_id and c.organization_id = _me.organization_id;
  if not found then
    raise exception 'Category not found';
  end if;
end
$$;

-- The organisation's categories in the order given: every one of them, each once.
create function public.reorder_document_categories(category_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_category_admin();
begin
  if category_ids is null
    or cardinality(category_ids) <> (select count(distinct x) from unnest(category_ids) x)
    or (select count(*) from public.document_categories c
        where c.organization_id = _me.organization_id) <> cardinality(category_ids)
    or exists (
      select 1 from unnest(category_ids) x
      where not exists (
        select 1 from public.document_categories c
        where c.id = x and c.organization_id = _me.organization_id))
  then
    raise exception 'The order must name every category once';
  end if;
  update public.document_categories c set "position" = o.ordinality::integer
  from unnest(category_ids) with ordinality as o (id, ordinality)
  where c.id = o.id;
end
$$;

create function public.create_member_group(name text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_category_admin();
  _name text := private.valid_name(create_member_group.name);
  _id uuid;
begin
  if exists (
    select 1 from public.member_groups g
    where g.organization_id = _me.organization_id and lower(g.name) = lower(_name)
  ) then
    raise exception 'A group with this name already exists';
  end if;
  insert into public.member_groups (organization_id, name)
  values (_me.organization_id, _name)
  returning id into _id;
  return _id;
end
$$;

create function public.rename_member_group(group_id uuid, new_name text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_category_admin();
  _name text := private.valid_name(new_name);
begin
  if exists (
    select 1 from public.member_groups g
    where g.organization_id = _me.organization_id and lower(g.name) = lower(_name)
      and g.id <> rename_member_group.group_id
  ) then
    raise exception 'A group with this name already exists';
  end if;
  update public.member_groups g set name = _name
  where g.id = rename_member_group.group_id and g.organization_id = _me.organization_id;
  if not found then
    raise exception 'Group not found';
  end if;
end
$$;

create function public.delete_member_group(group_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_category_admin();
begin
  if not exists (
    select 1 from public.member_groups g
    where g.id = delete_member_group.group_id and g.organization_id = _me.organization_id
  ) then
    raise exception 'Group not found';
  end if;
  if not private.may_manage_group(_me, delete_member_group.group_id) then
    raise exception 'You cannot change a group that grants more access than you have';
  end if;
  delete from public.member_groups g where g.id = delete_member_group.group_id;
end
$$;

create function public.set_member_group_members(group_id uuid, user_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_category_admin();
  _ids uuid[] := coalesce(user_ids, '{}');
begin
  if not exists (
    select 1 from public.member_groups g
    where g.id = set_member_group_members.group_id and g.organization_id = _me.organization_id
  ) then
    raise exception 'Group not found';
  end if;
  if not private.may_manage_group(_me, set_member_group_members.group_id) then
    raise exception 'You cannot change a group that grants more access than you have';
  end if;
  if exists (
    select 1 from unnest(_ids) x
    where not exists (
      select 1 from public.user_profiles p
      where p.id = x and p.organization_id = _me.organization_id)
  ) then
    raise exception 'User not found';
  end if;
  delete from public.member_group_members m
  where m.group_id = set_member_group_members.group_id and m.user_id <> all (_ids);
  insert into public.member_group_members (group_id, user_id, organization_id)
  select set_member_group_members.group_id, x, _me.organization_id
  from (select distinct x from unnest(_ids) x) u
  on conflict do nothing;
end
$$;

-- Master admins only: they grant access. The rules are replaced as given, kept while the
-- category is open.
create function public.set_category_access(category_id uuid, restricted boolean, rules jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _rule jsonb;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or _me.role <> 'master_admin' then
    raise exception 'Only master admins can change who may see a category';
  end if;
  if not exists (
    select 1 from public.document_categories c
    where c.id = set_category_access.category_id and c.organization_id = _me.organization_id
  ) then
    raise exception 'Category not found';
  end if;
  if rules is null or jsonb_typeof(rules) <> 'array' then
    raise exception 'Rules must be a list';
  end if;
  delete from public.category_access a where a.category_id = set_category_access.category_id;
  for _rule in select * from jsonb_array_elements(rules) loop
    if _rule ->> 'access' is null or _rule ->> 'access' not in ('view', 'edit') then
      raise exception 'Access must be view or edit';
    end if;
    if (_rule ? 'group_id') = (_rule ? 'role') then
      raise exception 'A rule names a group or a role';
    end if;
    if _rule ? 'group_id' and not exists (
      select 1 from public.member_groups g
      where g.id = (_rule ->> 'group_id')::uuid and g.organization_id = _me.organization_id
    ) then
      raise exception 'Group not found';
    end if;
    if _rule ? 'role' and _rule ->> 'role' not in ('viewer', 'user', 'admin', 'master_admin') then
      raise exception 'Unknown role';
    end if;
    insert into public.category_access (organization_id, category_id, group_id, role, access)
    values (_me.organization_id, set_category_access.category_id,
      (_rule ->> 'group_id')::uuid, _rule ->> 'role', _rule ->> 'access');
  end loop;
  update public.document_categories c set restricted = set_category_access.restricted
  where c.id = set_category_access.category_id;
end
$$;

-- ============================================================================================
-- Grants
-- ============================================================================================
revoke all on public.document_categories, public.member_groups, public.member_group_members,
  public.category_access from anon, authenticated;
grant select on public.document_categories, public.member_groups, public.member_group_members,
  public.category_access to authenticated;

revoke all on function private.seed_document_categories() from public, anon, authenticated;
revoke all on function private.member_category_access(uuid, uuid) from public, anon, authenticated;
revoke all on function private.check_document_category() from public, anon, authenticated;
revoke all on function private.caller_category_admin() from public, anon, authenticated;
revoke all on function private.valid_name(text) from public, anon, authenticated;
revoke all on function private.may_manage_group(public.user_profiles, uuid)
  from public, anon, authenticated;
revoke all on function public.my_document_categories() from public, anon, authenticated;
revoke all on function public.create_document_category(text) from public, anon, authenticated;
revoke all on function public.rename_document_category(uuid, text) from public, anon, authenticated;
revoke all on function public.retire_document_category(uuid) from public, anon, authenticated;
revoke all on function public.unretire_document_category(uuid) from public, anon, authenticated;
revoke all on function public.reorder_document_categories(uuid[]) from public, anon, authenticated;
revoke all on function public.create_member_group(text) from public, anon, authenticated;
revoke all on function public.rename_member_group(uuid, text) from public, anon, authenticated;
revoke all on function public.delete_member_group(uuid) from public, anon, authenticated;
revoke all on function public.set_member_group_members(uuid, uuid[])
  from public, anon, authenticated;
revoke all on function public.set_category_access(uuid, boolean, jsonb)
  from public, anon, authenticated;
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
