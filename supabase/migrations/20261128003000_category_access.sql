-- Issue 23: the organisation's own categories, groups, access per category and the Viewer
-- role, enforced by the database on every path (supabase/schemas/021_document_categories.sql
-- says the rule). Existing organisations get the specification's 14 categories in its order,
-- plus any category name their documents use; documents keep their category; nothing is
-- restricted, so every member keeps what they had.

-- Roles: viewer < user < admin < master_admin.
alter table public.user_profiles drop constraint user_profiles_role_check;
alter table public.user_profiles add constraint user_profiles_role_check
  check (role in ('viewer', 'user', 'admin', 'master_admin'));
alter table public.user_invitations drop constraint user_invitations_role_check;
alter table public.user_invitations add constraint user_invitations_role_check
  check (role in ('viewer', 'user', 'admin'));

create or replace function private.role_rank(role text)
returns integer
language sql
immutable
set search_path = ''
as $$
  select case role when 'viewer' then 1 when 'user' then 2 when 'admin' then 3
              when 'master_admin' then 4 else 0 end
$$;

create or replace function public.update_user_role(user_id uuid, new_role text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or _me.role <> 'master_admin' then
    raise exception 'Only master admins can change user roles';
  end if;
  if new_role is null or new_role not in ('viewer', 'user', 'admin') then
    raise exception 'Role must be viewer, user or admin';
  end if;
  if update_user_role.user_id = _me.id then
    raise exception 'You cannot change your own role';
  end if;
  select * into _target
  from public.user_profiles p
  where p.id = update_user_role.user_id and p.organization_id = _me.organization_id
  for update;
  if not found then
    raise exception 'User not found';
  end if;
  if _target.role = 'master_admin' then
    raise exception 'Cannot change the role of a master admin';
  end if;
  update public.user_profiles p set role = new_role where p.id = _target.id;
end
$$;

create or replace function private.create_invitation(email text, role text, full_name text)
returns public.invite_user_result
language plpgsql
security definer
set search_path = ''
as $$
#variable_conflict use_column
declare
  _me public.user_profiles := private.caller_profile();
  _email text := lower(private.trim_whitespace(coalesce(create_invitation.email, '')));
  _role text := coalesce(nullif(private.trim_whitespace(create_invitation.role), ''), 'user');
  _full_name text := nullif(private.trim_whitespace(create_invitation.full_name), '');
  -- Two version-4 UUIDs: 2 × 122 random bits from the server's cryptographic generator.
  _token text := replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '');
  _invitation_id uuid;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or private.role_rank(_me.role) < private.role_rank('admin') then
    raise exception 'Insufficient permissions to invite users';
  end if;
  if char_length(_email) > 254 or _email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
    raise exception 'Invalid email address';
  end if;
  if _role not in ('viewer', 'user', 'admin') then
    raise exception 'Role must be viewer, user or admin';
  end if;
  if char_length(_full_name) > 200 then
    raise exception 'Full name must be at most 200 characters';
  end if;
  if exists (
    select 1 from public.user_profiles p
    where lower(p.email) = _email and p.organization_id = _me.organization_id
  ) then
    raise exception 'User is already a member of this organization';
  end if;

  insert into public.user_invitations as i
    (email, role, full_name, organization_id, invited_by, expires_at)
  values (_email, _role, _full_name, _me.organization_id, _me.id, now() + interval '7 days')
  on conflict (organization_id, email) where accepted_at is null do update
    set role = excluded.role,
        full_name = excluded.full_name,
        invited_by = excluded.invited_by,
        expires_at = excluded.expires_at,
        created_at = now()
  returning i.id into _invitation_id;

  insert into private.invitation_tokens (invitation_id, token_hash)
  values (_invitation_id, private.hash_invitation_token(_token))
  on conflict (invitation_id) do update set token_hash = excluded.token_hash;

  return (_invitation_id, _email, _token)::public.invite_user_result;
end
$$;

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

-- Every category of the member's organisation with what this member may do there; no rows for
-- a member who is not active in an organisation. The one statement of the rule (see the
-- header); every other helper reads it.
create function private.member_category_access(user_id uuid)
returns table (
  id uuid, name text, "position" integer, retired boolean, restricted boolean,
  can_view boolean, can_edit boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select c.id, c.name, c.position, c.retired_at is not null, c.restricted,
         not c.restricted or p.role = 'master_admin' or coalesce(r.viewable, false),
         p.role <> 'viewer'
           and (not c.restricted or p.role = 'master_admin' or coalesce(r.editable, false))
    from public.user_profiles p
    join public.document_categories c on c.organization_id = p.organization_id
    left join lateral (
      select true as viewable, bool_or(a.access = 'edit') as editable
        from public.category_access a
       where a.category_id = c.id
         and (a.role = p.role
              or a.group_id in (select m.group_id from public.member_group_members m
                                 where m.user_id = p.id))
      having count(*) > 0
    ) r on c.restricted
   where p.id = member_category_access.user_id and p.is_active and p.organization_id is not null
$$;

-- The caller's organisation's categories the caller may not view, by name; empty when none is
-- restricted (or the caller is no active member: the policies' organisation test refuses
-- those). Policies call it as `(select private.caller_hidden_categories())`, once per
-- statement.
create function private.caller_hidden_categories()
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(a.name) filter (where not a.can_view), '{}')
    from private.member_category_access((select auth.uid())) a
$$;

-- The caller's organisation's categories the caller may not add to or change (a Viewer: all).
create function private.caller_uneditable_categories()
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(array_agg(a.name) filter (where not a.can_edit), '{}')
    from private.member_category_access((select auth.uid())) a
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
revoke all on function private.member_category_access(uuid) from public, anon, authenticated;
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


-- Every existing organisation's categories: the starting list, then the names in use.
insert into public.document_categories (organization_id, name, position)
select o.id, c.name, c.n
  from public.organizations o,
       unnest(private.starting_document_categories()) with ordinality c (name, n)
on conflict (organization_id, name) do nothing;
insert into public.document_categories (organization_id, name, position)
select u.organization_id, u.category, 14 + row_number() over (partition by u.organization_id order by u.category)
  from (select distinct d.organization_id, d.category from public.documents d) u
on conflict (organization_id, name) do nothing;

-- documents.category: one of the organisation's categories, by name.
alter table public.documents drop constraint documents_category_check;
alter table public.documents add constraint documents_category_fkey
  foreign key (organization_id, category)
  references public.document_categories (organization_id, name) on update cascade;

-- The counter of documents in use, per organisation and category.
drop function private.live_document_count(uuid);
drop table private.document_counts;
create table private.document_counts (
  organization_id uuid not null references public.organizations (id) on delete cascade,
  -- The category's name (no foreign key: a rename moves the documents, and with them their
  -- count, through the triggers below).
  category text not null,
  -- Documents not in the trash.
  live bigint not null default 0 constraint document_counts_live_check check (live >= 0),
  primary key (organization_id, category)
);
alter table private.document_counts enable row level security;
revoke all on table private.document_counts from public, anon, authenticated;
insert into private.document_counts (organization_id, category, live)
select d.organization_id, d.category, count(*) from public.documents d
 where d.deleted_at is null group by d.organization_id, d.category;

create or replace function private.add_document_counts(changes jsonb)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into private.document_counts as c (organization_id, category, live)
  select (x ->> 'organization_id')::uuid, x ->> 'category', (x ->> 'delta')::bigint
    from jsonb_array_elements(changes) x
   where (x ->> 'delta')::bigint > 0
  on conflict (organization_id, category) do update set live = c.live + excluded.live;
  -- Decreases only touch existing rows: an organisation being deleted has lost its rows already.
  update private.document_counts c
     set live = c.live + (x ->> 'delta')::bigint
    from jsonb_array_elements(changes) x
   where c.organization_id = (x ->> 'organization_id')::uuid
     and c.category = x ->> 'category'
     and (x ->> 'delta')::bigint < 0;
end
$$;

create or replace function private.count_inserted_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.add_document_counts(coalesce(jsonb_agg(x), '[]'))
     from (select n.organization_id, n.category, count(*) as delta
             from new_documents n where n.deleted_at is null
            group by n.organization_id, n.category) x;
  return null;
end
$$;

create or replace function private.count_updated_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.add_document_counts(coalesce(jsonb_agg(x), '[]'))
     from (select c.organization_id, c.category, sum(c.delta) as delta
             from (select n.organization_id, n.category, 1 as delta from new_documents n
                    where n.deleted_at is null
                   union all
                   select o.organization_id, o.category, -1 from old_documents o
                    where o.deleted_at is null) c
            group by c.organization_id, c.category
           having sum(c.delta) <> 0) x;
  return null;
end
$$;

create or replace function private.count_deleted_documents()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform private.add_document_counts(coalesce(jsonb_agg(x), '[]'))
     from (select o.organization_id, o.category, -count(*) as delta
             from old_documents o where o.deleted_at is null
            group by o.organization_id, o.category) x;
  return null;
end
$$;

create or replace function private.live_document_count(organization uuid, hidden text[] default '{}')
returns bigint
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select sum(c.live) from private.document_counts c
                    where c.organization_id = organization and c.category <> all (hidden)), 0)::bigint
$$;

create or replace function private.check_document_category()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if pg_catalog.current_setting('steward.category_rename', true) = 'on'
     or (tg_op = 'UPDATE' and new.category = old.category) then
    return new;
  end if;
  if exists (select 1 from public.document_categories c
              where c.organization_id = new.organization_id and c.name = new.category
                and c.retired_at is not null) then
    raise exception 'This category is retired' using errcode = '23514';
  end if;
  if (select auth.uid()) is not null
     and new.organization_id = private.caller_organization_id('viewer')
     and new.category = any (private.caller_uneditable_categories()) then
    raise exception 'You do not have access to this category' using errcode = '42501';
  end if;
  return new;
end
$$;

create or replace function private.member_may_view_document(user_id uuid, document_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.documents d
      join private.member_category_access(member_may_view_document.user_id) a
        on a.name = d.category
      join public.user_profiles p on p.id = member_may_view_document.user_id
     where d.id = member_may_view_document.document_id
       and d.organization_id = p.organization_id
       and a.can_view)
$$;

create or replace function private.member_may_edit_document(user_id uuid, document_id uuid)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from public.documents d
      join private.member_category_access(member_may_edit_document.user_id) a
        on a.name = d.category
      join public.user_profiles p on p.id = member_may_edit_document.user_id
     where d.id = member_may_edit_document.document_id
       and d.organization_id = p.organization_id
       and a.can_edit)
$$;

create or replace function private.document_category(document_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select d.category from public.documents d where d.id = document_category.document_id
$$;

create or replace function private.file_in_categories(name text, categories text[])
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return exists (select 1 from public.documents d
                  where d.file_path = file_in_categories.name and d.category = any (categories))
      or exists (select 1 from public.document_versions v
                   join public.documents d on d.id = v.document_id
                  where v.file_path = file_in_categories.name and d.category = any (categories));
end
$$;

create or replace function public.document_stats()
returns public.document_stats_result
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('viewer');
  _hidden text[] := private.caller_hidden_categories();
  _today date := (now() at time zone 'UTC')::date;
  _result public.document_stats_result;
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  select
    count(*)::integer,
    (count(*) filter (where d.expiry_date between _today and _today + 30))::integer,
    (count(*) filter (where d.expiry_date < _today))::integer,
    (count(distinct d.category))::integer
  into _result
  from public.documents d
  where d.organization_id = _organization_id and d.deleted_at is null
    and d.category <> all (_hidden);
  return _result;
end
$$;

create or replace function public.count_documents_matching(term text)
returns integer
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('viewer');
  _hidden text[] := private.caller_hidden_categories();
  _needle text := lower(coalesce(term, ''));
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  return (
    select count(*)::integer
    from public.documents d
    where d.organization_id = _organization_id and d.deleted_at is null
      and d.category <> all (_hidden)
      and (
        strpos(lower(d.category), _needle) > 0
        or exists (select 1 from unnest(d.tags) t (tag) where strpos(lower(t.tag), _needle) > 0)
      )
  );
end
$$;

create or replace function public.set_documents_category(document_ids uuid[], new_category text)
returns integer
language plpgsql
security invoker
set search_path = ''
as $$
declare
  _ids uuid[] := array(select distinct x from unnest(document_ids) x where x is not null);
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  update public.documents set category = new_category where id = any (_ids);
  get diagnostics _changed = row_count;
  if _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
exception
  when foreign_key_violation or not_null_violation then
    raise exception 'Choose one of the categories';
end
$$;

create trigger documents_category_checked
  before insert or update of category on public.documents
  for each row
  when (pg_catalog.current_setting('role', true) = 'authenticated')
  execute function private.check_document_category();

revoke all on function private.live_document_count(uuid, text[]) from public, anon, authenticated;
revoke all on function private.check_document_category() from public, anon, authenticated;
revoke all on function private.member_may_view_document(uuid, uuid) from public, anon, authenticated;
revoke all on function private.member_may_edit_document(uuid, uuid) from public, anon, authenticated;
revoke all on function private.document_category(uuid) from public, anon, authenticated;
revoke all on function private.file_in_categories(text, text[]) from public, anon, authenticated;
grant execute on function private.document_category(uuid) to authenticated;
grant execute on function private.file_in_categories(text, text[]) to authenticated;

create or replace function private.supersede_document_file(document_id uuid, file_path text, change text)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _document public.documents;
  _path text := private.trim_whitespace(coalesce(supersede_document_file.file_path, ''));
  _file storage.objects;
  _next integer;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _document from public.documents d
  where d.id = supersede_document_file.document_id and d.organization_id = _me.organization_id
    and d.deleted_at is null
  for update;
  if not found or not private.member_may_edit_document(_me.id, _document.id) then
    raise exception 'Document not found';
  end if;
  _file := private.claim_new_document_file(_me.organization_id, _document.file_path, _path);

  select coalesce(max(v.version_number), 0) + 1 into _next
  from public.document_versions v where v.document_id = _document.id;
  insert into public.document_versions
    (document_id, organization_id, version_number, change, file_path, size, name, expiry_date,
     properties, uploaded_by, uploaded_at, replaced_by)
  values
    (_document.id, _document.organization_id, _next, supersede_document_file.change,
     _document.file_path, _document.size, _document.name, _document.expiry_date,
     jsonb_build_object('name', _document.name, 'category', _document.category,
                        'tags', to_jsonb(_document.tags), 'description', _document.description,
                        'expiry_date', _document.expiry_date),
     _document.uploaded_by, _document.upload_date, _me.id);

  update public.documents d
  set file_path = _path, size = (_file.metadata ->> 'size')::bigint,
      content_sha256 = private.object_sha256(_file.metadata, _file.user_metadata),
      upload_date = now(), uploaded_by = _me.id
  where d.id = _document.id
  returning * into _document;
  return _document;
end
$$;

create or replace function public.restore_document_version(version_id uuid, file_path text)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _version public.document_versions;
  _copy storage.objects;
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  select v.* into _version from public.document_versions v
  join public.documents d on d.id = v.document_id and d.deleted_at is null
  where v.id = restore_document_version.version_id and v.organization_id = _organization_id
    and d.category <> all (private.caller_uneditable_categories());
  if not found then
    raise exception 'Version not found';
  end if;
  -- Claimed first: its bytes cannot change between the check and the restore.
  _copy := private.claim_document_file(restore_document_version.file_path);
  if _copy.id is not null and not private.copy_of_version(_copy, _version) then
    raise exception 'The new file must be a copy of the version';
  end if;
  -- For the history's entry (migration …0810): which version came back.
  perform set_config('steward.restored_version', _version.version_number::text, true);
  return private.supersede_document_file(_version.document_id, restore_document_version.file_path,
                                         'version_restore');
end
$$;

create or replace function public.renew_document(document_id uuid, file_path text, expiry_date date)
returns public.documents
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _document public.documents;
  _path text := private.trim_whitespace(coalesce(renew_document.file_path, ''));
  _file storage.objects;
  _next integer;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  select * into _document from public.documents d
  where d.id = renew_document.document_id and d.organization_id = _me.organization_id
    and d.deleted_at is null
  for update;
  if not found or not private.member_may_edit_document(_me.id, _document.id) then
    raise exception 'Document not found';
  end if;
  if renew_document.expiry_date is null then
    raise exception 'Expiry date is required';
  end if;
  if renew_document.expiry_date not between date '1900-01-01' and date '9999-12-31' then
    raise exception 'Expiry date must be between 1900 and 9999';
  end if;
  _file := private.claim_new_document_file(_me.organization_id, _document.file_path, _path);

  select coalesce(max(v.version_number), 0) + 1 into _next
  from public.document_versions v where v.document_id = _document.id;
  insert into public.document_versions
    (document_id, organization_id, version_number, change, file_path, size, name, expiry_date,
     properties, uploaded_by, uploaded_at, replaced_by)
  values
    (_document.id, _document.organization_id, _next, 'renewal', _document.file_path,
     _document.size, _document.name, _document.expiry_date,
     jsonb_build_object('name', _document.name, 'category', _document.category,
                        'tags', to_jsonb(_document.tags), 'description', _document.description,
                        'expiry_date', _document.expiry_date),
     _document.uploaded_by, _document.upload_date, _me.id);

  -- upload_date and uploaded_by describe the current file; created_at stays the document's.
  update public.documents d
  set file_path = _path,
      size = (_file.metadata ->> 'size')::bigint,
      content_sha256 = private.object_sha256(_file.metadata, _file.user_metadata),
      expiry_date = renew_document.expiry_date,
      upload_date = now(),
      uploaded_by = _me.id,
      renewal_in_progress = false,
      renewal_note = null
  where d.id = _document.id
  returning * into _document;
  return _document;
end
$$;

-- Issue 24 added department pages fed by several categories (section_categories); the
-- search follows the caller's categories too.
create or replace function public.search_documents(
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
  _organization uuid := private.caller_organization_id('viewer');
  -- The categories the caller may not view ($18): their documents, and the words inside their
  -- files, are not there for the caller (021_document_categories.sql).
  _hidden text[] := private.caller_hidden_categories();
  _visible text := '';
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
  -- parameters ($1…$10), never part of the text. The words' own condition follows below. The
  -- categories hidden from the caller first: every statement below reads `_where`.
  if cardinality(_hidden) > 0 then
    _visible := ' and d.category <> all ($18)';
  end if;
  _where := _visible;
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
            _organization, _count_limit + 1, _matches, _read_budget, _hidden;
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
            _organization, _count_limit + 1, _matches, _read_budget, _hidden;
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
            _organization, _count_limit + 1, _matches, _read_budget, _hidden;
  elsif _where = _visible then
    -- Neither words nor filters: the organisation's counter, over the categories the caller
    -- may view.
    _total := private.live_document_count(_organization, _hidden);
  else
    -- Filters alone: counted exactly.
    execute 'select count(*)' || _from || _where
      into _total
      using _tags, _categories, _query, _today, _states, _after, _before, uploaded_by_filter,
            _sections, coalesce(section_tags, '{}'), _candidates, _limit, _offset,
            _organization, _count_limit + 1, _matches, _read_budget, _hidden;
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
          _organization, _count_limit + 1, _matches, _read_budget, _hidden;

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

create or replace function public.delete_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _ids uuid[] := array(select distinct x from unnest(delete_documents.document_ids) x
                       where x is not null);
  _changed integer;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  update public.documents d
     set deleted_at = now(), deleted_by = auth.uid()
   where d.id = any (_ids) and d.organization_id = _organization_id and d.deleted_at is null
     and d.category <> all (private.caller_uneditable_categories());
  get diagnostics _changed = row_count;
  if _organization_id is null or _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found';
  end if;
  return _changed;
end
$$;

create or replace function public.list_trash()
returns setof public.trash_entry
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('viewer');
  _hidden text[] := private.caller_hidden_categories();
  _retention interval := (select s.retention from private.trash_settings s);
begin
  if _organization_id is null then
    raise exception 'No organization found';
  end if;
  return query
  select d.id, d.name, d.category, d.size, d.file_path, d.deleted_at, d.deleted_by,
         case when p.id is not null then private.display_name(p) end,
         d.deleted_at + _retention
  from public.documents d
  left join public.user_profiles p on p.id = d.deleted_by
  where d.organization_id = _organization_id and d.deleted_at is not null
    and d.category <> all (_hidden)
  order by d.deleted_at desc, d.id;
end
$$;

create or replace function public.restore_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id();
  _ids uuid[] := array(select distinct x from unnest(restore_documents.document_ids) x
                       where x is not null);
  _document record;
  _changed integer := 0;
begin
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  for _document in
    select d.id, d.name from public.documents d
    where d.id = any (_ids) and d.organization_id = _organization_id and d.deleted_at is not null
      and d.category <> all (private.caller_uneditable_categories())
    order by d.deleted_at, d.id
    for update
  loop
    update public.documents d
       set deleted_at = null, deleted_by = null,
           name = private.restored_document_name(_organization_id, _document.name)
     where d.id = _document.id;
    _changed := _changed + 1;
  end loop;
  if _organization_id is null or _changed <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found in the trash';
  end if;
  return _changed;
end
$$;

create or replace function public.purge_documents(document_ids uuid[])
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('admin');
  _ids uuid[] := array(select distinct x from unnest(purge_documents.document_ids) x
                       where x is not null);
  _purged integer;
begin
  if _organization_id is null and private.caller_organization_id() is not null then
    raise exception 'Only admins can delete documents for ever';
  end if;
  if cardinality(_ids) not between 1 and 1000 then
    raise exception 'Select between 1 and 1000 documents';
  end if;
  -- Only what the admin may edit (a restricted category's documents are its editors').
  _purged := private.purge_documents(_organization_id, array(
    select d.id from public.documents d
     where d.id = any (_ids) and d.organization_id = _organization_id
       and d.category <> all (private.caller_uneditable_categories())));
  if _organization_id is null or _purged <> cardinality(_ids) then
    raise exception 'Some of the selected documents were not found in the trash';
  end if;
  return _purged;
end
$$;

create or replace function public.empty_trash()
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _organization_id uuid := private.caller_organization_id('admin');
begin
  if _organization_id is null then
    if private.caller_organization_id() is not null then
      raise exception 'Only admins can delete documents for ever';
    end if;
    raise exception 'No organization found';
  end if;
  return private.purge_documents(
    _organization_id,
    array(select d.id from public.documents d
          where d.organization_id = _organization_id and d.deleted_at is not null
            and d.category <> all (private.caller_uneditable_categories())));
end
$$;

create or replace function private.log_document_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  _changes jsonb;
  _version public.document_versions;
  _kind text;
  _details jsonb;
begin
  if tg_op = 'INSERT' then
    perform private.log_activity(new.organization_id, 'document.uploaded', new.id, new.name,
      jsonb_build_object('category', new.category, 'size', new.size));
    return null;
  end if;
  if tg_op = 'DELETE' then
    if private.organization_exists(old.organization_id) then
      perform private.log_activity(old.organization_id, 'document.purged', old.id, old.name);
    end if;
    return null;
  end if;

  -- A category's rename reaches its documents; the history says nothing per document.
  if pg_catalog.current_setting('steward.category_rename', true) = 'on' then
    return null;
  end if;
  if old.deleted_at is null and new.deleted_at is not null then
    perform private.log_activity(new.organization_id, 'document.deleted', new.id, new.name);
    return null;
  end if;
  if old.deleted_at is not null and new.deleted_at is null then
    perform private.log_activity(new.organization_id, 'document.restored', new.id, new.name,
      case when new.name is distinct from old.name
           then jsonb_build_object('changes', jsonb_build_object(
                  'name', jsonb_build_object('old', old.name, 'new', new.name)))
           else '{}'::jsonb end);
    return null;
  end if;

  -- The properties a person changes, each with its old and new value (long texts shortened).
  select coalesce(jsonb_object_agg(o.key, jsonb_build_object(
           'old', case when jsonb_typeof(o.value) = 'string' then to_jsonb(left(o.value #>> '{}', 500)) else o.value end,
           'new', case when jsonb_typeof(n.value) = 'string' then to_jsonb(left(n.value #>> '{}', 500)) else n.value end)),
         '{}'::jsonb)
  into _changes
  from jsonb_each(to_jsonb(old)) o
  join jsonb_each(to_jsonb(new)) n on n.key = o.key
  where o.key in ('name', 'category', 'expiry_date', 'tags', 'description',
                  'renewal_in_progress', 'renewal_note')
    and o.value is distinct from n.value;
  if new.responsible_id is distinct from old.responsible_id then
    _changes := _changes || jsonb_build_object('responsible', jsonb_build_object(
      'old', private.member_name(old.responsible_id), 'new', private.member_name(new.responsible_id)));
  end if;

  if new.file_path is distinct from old.file_path then
    select * into _version from public.document_versions v
    where v.document_id = new.id and v.file_path = old.file_path
    order by v.version_number desc limit 1;
    _kind := case _version.change
               when 'renewal' then 'document.renewed'
               when 'version_restore' then 'document.version_restored'
               when 'file_replacement' then 'document.file_replaced'
               else 'document.content_changed'
             end;
    _details := jsonb_build_object('size', jsonb_build_object('old', old.size, 'new', new.size),
                                   'version_number', _version.version_number);
    if _version.change = 'version_restore' then
      -- restore_document_version names the version it brought back for this entry.
      _details := _details || jsonb_build_object('restored_version',
        nullif(current_setting('steward.restored_version', true), '')::integer);
    end if;
    if _changes <> '{}'::jsonb then
      _details := _details || jsonb_build_object('changes', _changes);
    end if;
    perform private.log_activity(new.organization_id, _kind, new.id, new.name, _details);
  elsif new.content_sha256 is distinct from old.content_sha256 and old.content_sha256 is not null then
    -- The file was overwritten where it is (an edit through the Storage API).
    perform private.log_activity(new.organization_id, 'document.content_changed', new.id, new.name,
      jsonb_build_object('size', jsonb_build_object('old', old.size, 'new', new.size)));
  elsif _changes <> '{}'::jsonb then
    perform private.log_activity(new.organization_id,
      case when (select array_agg(k) from jsonb_object_keys(_changes) k) = array['name']
           then 'document.renamed' else 'document.updated' end,
      new.id, new.name, jsonb_build_object('changes', _changes));
  end if;
  return null;
end
$$;

create or replace function private.record_document_look(user_id uuid, object_name text, action text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  _document public.documents;
  _kind text := 'document.' || action;
begin
  if action not in ('viewed', 'downloaded') then
    raise exception 'Unknown look: %', action;
  end if;
  select d.* into _document
    from (select x.id from public.documents x where x.file_path = object_name
          union all
          select v.document_id from public.document_versions v where v.file_path = object_name
          limit 1) f
    join public.documents d on d.id = f.id
    join public.document_categories c
      on c.organization_id = d.organization_id and c.name = d.category and c.restricted;
  if _document.id is null then
    return;
  end if;
  if exists (select 1 from public.activity_log l
              where l.document_id = _document.id and l.kind = _kind
                and l.actor_id = record_document_look.user_id
                and l.occurred_at > now() - interval '1 minute') then
    return;
  end if;
  insert into public.activity_log (organization_id, actor_id, actor_name, kind, document_id,
                                   subject, details)
  select _document.organization_id, p.id, private.display_name(p), _kind, _document.id,
         _document.name,
         case when _document.file_path <> object_name
              then jsonb_build_object('version', true) else '{}'::jsonb end
    from public.user_profiles p where p.id = record_document_look.user_id;
end
$$;

create or replace function public.send_documents_email(
  recipients text[],
  subject text,
  message text,
  document_ids uuid[],
  as_links boolean
)
returns public.mail_result
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _organization public.organizations;
  _recipients text[];
  _bad text;
  _subject text := private.trim_whitespace(coalesce(send_documents_email.subject, ''));
  _message text := nullif(private.trim_whitespace(send_documents_email.message), '');
  _ids uuid[];
  _documents jsonb;
  _found integer;
  _id uuid;
begin
  if _me.organization_id is null or not _me.is_active then
    raise exception 'No organization found';
  end if;
  -- A Viewer changes nothing and sends nothing through the installation's mail.
  if private.role_rank(_me.role) < private.role_rank('user') then
    raise exception 'Viewers cannot send documents by e-mail' using errcode = '42501';
  end if;
  select * into _organization from public.organizations o where o.id = _me.organization_id;

  select coalesce(array_agg(distinct a), '{}') into _recipients
  from (
    select private.trim_whitespace(r) as a from unnest(send_documents_email.recipients) r
  ) t
  where a is not null and a <> '';
  if cardinality(_recipients) = 0 then
    raise exception 'Please enter at least one recipient email address';
  end if;
  select a into _bad from unnest(_recipients) a where not private.is_email_address(a) limit 1;
  if _bad is not null then
    raise exception 'Invalid email address: %', left(_bad, 254);
  end if;
  if cardinality(_recipients) > 50 then
    raise exception 'An e-mail can have at most 50 recipients';
  end if;
  if _subject = '' then
    raise exception 'Subject is required';
  end if;
  if char_length(_subject) > 300 then
    raise exception 'Subject must be at most 300 characters';
  end if;
  if char_length(_message) > 5000 then
    raise exception 'Message must be at most 5000 characters';
  end if;

  select coalesce(array_agg(distinct i), '{}') into _ids
  from unnest(send_documents_email.document_ids) i where i is not null;
  if cardinality(_ids) = 0 then
    raise exception 'Select at least one document';
  end if;
  if cardinality(_ids) > 100 then
    raise exception 'An e-mail can carry at most 100 documents';
  end if;
  select count(*)::integer,
         coalesce(jsonb_agg(jsonb_build_object('document_id', d.id, 'name', d.name,
                                               'file_path', d.file_path, 'size', d.size)
                            order by d.name), '[]'::jsonb)
  into _found, _documents
  from public.documents d
  where d.id = any (_ids) and d.organization_id = _me.organization_id
    and d.deleted_at is null
    -- Only what the sender may view (issue 23): any other answers as a document not found.
    and private.member_may_view_document(_me.id, d.id);
  if _found <> cardinality(_ids) then
    raise exception 'Document not found';
  end if;

  -- Members send documents to people outside the organisation: a bound on how many, so that
  -- a stolen session cannot turn the installation's SMTP account into a mailing list.
  if (select count(*) from public.outbox_messages m
      where m.organization_id = _me.organization_id and m.kind = 'documents'
        and m.created_at > now() - interval '1 hour') >= 100 then
    raise exception 'Too many e-mails sent in the last hour; please try again later';
  end if;

  _id := private.queue_mail(
    _me.organization_id, 'documents', _recipients, _subject,
    jsonb_build_object(
      'sender_name', private.display_name(_me),
      'sender_email', _me.email,
      'organization_name', _organization.name,
      'message', _message,
      'as_links', coalesce(send_documents_email.as_links, false)),
    _documents, _me.id);
  return (_id, (select m.status from public.outbox_messages m where m.id = _id))::public.mail_result;
end
$$;

create or replace function private.run_reminders(organization_id uuid, local_date date)
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
  return _digests;
end
$$;

create or replace function public.calendar_feed(token text)
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

create or replace function private.finish_organization_import(import_id uuid, documents jsonb)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _import public.organization_imports;
  _folder text;
  _count integer;
begin
  select * into _import from public.organization_imports i where i.id = import_id for update;
  if _import.id is null or _import.status <> 'running' then
    raise exception 'The import is not running';
  end if;
  _folder := 'documents/' || _import.organization_id || '/';
  -- Storage refuses a direct delete of its rows unless asked to, as hosted Storage does.
  perform set_config('storage.allow_delete_query', 'true', true);
  delete from storage.objects o where o.bucket_id = 'imports' and o.name = _import.file_path;

  insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
  select 'documents', _folder || (x.value ->> 'object_name'), _import.requested_by,
         _import.requested_by::text, x.value ->> 'version', x.value -> 'metadata'
  from jsonb_array_elements(finish_organization_import.documents) with ordinality x
  order by x.ordinality;

  -- The documents' categories: those the organisation lacks are added after its own, in the
  -- order the archive first names them (issue 23).
  insert into public.document_categories (organization_id, name, position)
  select _import.organization_id, n.name,
         coalesce((select max(c.position) from public.document_categories c
                    where c.organization_id = _import.organization_id), 0) + n.k
    from (select x.value ->> 'category' as name,
                 row_number() over (order by min(x.ordinality)) as k
            from jsonb_array_elements(finish_organization_import.documents) with ordinality x
           group by x.value ->> 'category') n
  on conflict (organization_id, name) do nothing;

  -- The responsible member is the person of the same e-mail address when they are an active
  -- member here, else the admin.
  insert into public.documents (organization_id, name, category, expiry_date, size, file_path,
                                tags, description, uploaded_by, responsible_id)
  select _import.organization_id, x.value ->> 'name', x.value ->> 'category',
         (x.value ->> 'expiry_date')::date, (x.value ->> 'size')::bigint,
         _folder || (x.value ->> 'object_name'),
         coalesce(array(select jsonb_array_elements_text(x.value -> 'tags')), '{}'),
         x.value ->> 'description', _import.requested_by,
         coalesce((select p.id from public.user_profiles p
                   where p.organization_id = _import.organization_id and p.is_active
                     and lower(p.email) = lower(x.value ->> 'responsible_email')
                   limit 1),
                  _import.requested_by)
  from jsonb_array_elements(finish_organization_import.documents) with ordinality x
  order by x.ordinality;
  get diagnostics _count = row_count;

  update public.organization_imports
  set status = 'done', document_count = _count, finished_at = now(), error = null
  where id = import_id;
  perform private.log_activity(_import.organization_id, 'organization.imported', null, null,
    jsonb_build_object('documents', _count));
  return _count;
end
$$;

revoke all on function private.record_document_look(uuid, text, text) from public, anon, authenticated;

drop policy "members read their organisation" on public.organizations;
create policy "members read their organisation"
  on public.organizations for select to authenticated
  using (id = (select private.caller_organization_id('viewer')));

drop policy "users read their own profile and members read their organisation's profiles" on public.user_profiles;
create policy "users read their own profile and members read their organisation's profiles"
  on public.user_profiles for select to authenticated
  using (
    id = (select auth.uid())
    or organization_id = (select private.caller_organization_id('viewer'))
  );

drop policy "members read their organisation's documents" on public.documents;
create policy "members read their organisation's documents"
  on public.documents for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('viewer'))
    and deleted_at is null
    and category <> all ((select private.caller_hidden_categories())::text[])
  );

drop policy "members add documents to their organisation" on public.documents;
create policy "members add documents to their organisation"
  on public.documents for insert to authenticated
  with check (
    organization_id = (select private.caller_organization_id())
    and category <> all ((select private.caller_uneditable_categories())::text[])
  );

drop policy "members edit their organisation's documents" on public.documents;
create policy "members edit their organisation's documents"
  on public.documents for update to authenticated
  using (
    organization_id = (select private.caller_organization_id())
    and deleted_at is null
    and category <> all ((select private.caller_uneditable_categories())::text[])
  )
  with check (
    organization_id = (select private.caller_organization_id())
    and deleted_at is null
    and category <> all ((select private.caller_uneditable_categories())::text[])
  );

drop policy "members read their organisation's document files" on storage.objects;
create policy "members read their organisation's document files"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'documents'
    and (storage.foldername(name))[1] = 'documents'
    and (storage.foldername(name))[2] = (select private.caller_organization_id('viewer')::text)
    and ((select private.caller_hidden_categories()) = '{}'
         or not private.file_in_categories(name, (select private.caller_hidden_categories())))
  );

drop policy "members read their organisation's logo" on storage.objects;
create policy "members read their organisation's logo"
  on storage.objects for select to authenticated
  using (
    bucket_id = 'branding'
    and (storage.foldername(name))[1] = (select private.caller_organization_id('viewer')::text)
  );

drop policy "members read their organisation's provider settings" on public.oauth_configs;
create policy "members read their organisation's provider settings"
  on public.oauth_configs for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

drop policy "members read their organisation's integration customisations" on public.integration_customizations;
create policy "members read their organisation's integration customisations"
  on public.integration_customizations for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

drop policy "members read their organisation's custom integrations" on public.custom_integrations;
create policy "members read their organisation's custom integrations"
  on public.custom_integrations for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

drop policy "members read their organisation's integration contacts" on public.integration_contacts;
create policy "members read their organisation's integration contacts"
  on public.integration_contacts for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

drop policy "members read their organisation's corporate status" on public.corporate_status;
create policy "members read their organisation's corporate status"
  on public.corporate_status for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

drop policy "members read their organisation's document versions" on public.document_versions;
create policy "members read their organisation's document versions"
  on public.document_versions for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('viewer'))
    and exists (select 1 from public.documents d where d.id = document_id)
  );

drop policy "members read their organisation's reminder settings" on public.reminder_settings;
create policy "members read their organisation's reminder settings"
  on public.reminder_settings for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

drop policy "members read their own calendar feed" on public.calendar_feeds;
create policy "members read their own calendar feed"
  on public.calendar_feeds for select to authenticated
  using (
    user_id = (select auth.uid())
    and organization_id = (select private.caller_organization_id('viewer'))
  );

drop policy "members read their organisation's document texts" on public.document_texts;
create policy "members read their organisation's document texts"
  on public.document_texts for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('viewer'))
    and ((select private.caller_hidden_categories()) = '{}'
         or coalesce(private.document_category(document_id)
                       <> all ((select private.caller_hidden_categories())::text[]), false))
  );

drop policy "members read their organisation's document history, admins all of it" on public.activity_log;
create policy "members read their organisation's document history, admins all of it"
  on public.activity_log for select to authenticated
  using (
    organization_id = (select private.caller_organization_id('viewer'))
    and (document_id is not null
         or organization_id = (select private.caller_organization_id('admin')))
    and (document_id is null
         or (select private.caller_hidden_categories()) = '{}'
         or coalesce(private.document_category(document_id)
                       <> all ((select private.caller_hidden_categories())::text[]), true))
    and (kind not in ('document.viewed', 'document.downloaded')
         or private.document_category(document_id)
              <> all ((select private.caller_uneditable_categories())::text[]))
  );


-- The second-factor rule (20_second_factor.sql) on the new tables.
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

-- Issue 24's departments: Viewers read them too (the department pages are theirs as well).
drop policy "members read their organisation's departments" on public.departments;
create policy "members read their organisation's departments"
  on public.departments for select to authenticated
  using (organization_id = (select private.caller_organization_id('viewer')));

-- Issue 24's departments name the organisation's own categories (Settings offers them as a list).
create or replace function private.normalise_department()
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
