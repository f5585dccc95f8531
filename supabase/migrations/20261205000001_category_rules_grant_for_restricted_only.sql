-- member_category_access reads the rules of a restricted category through
-- private.category_rules_grant, called for restricted categories only (issue 27 item 3): as a
-- lateral query of its statement the lookup was set up on every call, restricted categories or
-- not. In process on PGlite (2,000 computations of the caller's context, medians of 5 rounds,
-- main's definitions and these alternated): 138 µs a computation → 105 µs for an organisation
-- that restricts nothing (most, and every one of the load benchmark), 157 → 166 µs with one
-- restricted category. The same answers: viewable when a rule names the member (their role
-- exactly, or a group they are in), editable when one of those says edit.

-- What the rules of a restricted category grant this member (their own role exactly, or a group
-- they are in): 'edit' when one of those rules says edit, 'view' when they name the member but
-- none says edit, null when none does. Part of member_category_access's statement of the rule,
-- which alone asks it, for restricted categories only: as a lateral query of that statement it
-- was set up on every call, restricted categories or not, about a quarter of the caller's
-- context on PGlite for the organisations (most) that restrict none.
create or replace function private.category_rules_grant(category_id uuid, role text, user_id uuid)
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

-- Every category of the member's organisation with what this member may do there; no rows for
-- a member who is not active in an organisation. The one statement of the rule (see the
-- header; the rules of a restricted category are read by category_rules_grant above, for this
-- statement only); every other helper reads it. PL/pgSQL so that its plan is kept for the
-- session (see private.two_factor_required_for): policies read it on every statement.
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
         not c.restricted or p.role = 'master_admin' or r.granted is not null,
         p.role <> 'viewer'
           and (not c.restricted or p.role = 'master_admin' or coalesce(r.granted = 'edit', false))
    from public.user_profiles p
    join public.document_categories c on c.organization_id = p.organization_id
   cross join lateral (
      select case when c.restricted
                  then private.category_rules_grant(c.id, p.role, p.id) end as granted
    ) r
   where p.id = member_category_access.user_id and p.is_active and p.organization_id is not null;
end
$$;

revoke all on function private.category_rules_grant(uuid, text, uuid) from public, anon, authenticated;
