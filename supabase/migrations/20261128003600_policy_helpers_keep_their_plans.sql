-- The policy helpers that were SQL functions become PL/pgSQL, with the same statements and
-- answers (issue 23's figures; supabase/schemas/01_organizations_and_profiles.sql and
-- 021_document_categories.sql). Postgres keeps a PL/pgSQL function's plans for the session; a
-- SQL function with a `set search_path` clause cannot be inlined and is planned again on every
-- call. Policies call these on every statement: on PostgreSQL the caller's hidden categories
-- cost 0.38 ms of backend CPU per statement as SQL and 0.11 ms as PL/pgSQL, whether a second
-- factor is required 0.23 ms and 0.07 ms.

create or replace function private.two_factor_required_for(user_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _required boolean;
begin
  select o.require_two_factor_for_admins into _required
    from public.user_profiles p
    join public.organizations o on o.id = p.organization_id
   where p.id = two_factor_required_for.user_id
     and p.is_active
     and private.role_rank(p.role) >= private.role_rank('admin');
  return coalesce(_required, false);
end
$$;

create or replace function private.session_is_aal2()
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2';
end
$$;

create or replace function private.member_category_access(user_id uuid)
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
   where p.id = member_category_access.user_id and p.is_active and p.organization_id is not null;
end
$$;

create or replace function private.caller_hidden_categories()
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _hidden text[];
begin
  select coalesce(array_agg(a.name) filter (where not a.can_view), '{}') into _hidden
    from private.member_category_access(auth.uid()) a;
  return _hidden;
end
$$;

create or replace function private.caller_uneditable_categories()
returns text[]
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  _uneditable text[];
begin
  select coalesce(array_agg(a.name) filter (where not a.can_edit), '{}') into _uneditable
    from private.member_category_access(auth.uid()) a;
  return _uneditable;
end
$$;
