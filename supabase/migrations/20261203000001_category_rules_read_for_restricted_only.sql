-- member_category_access reads the rules of category_access for the restricted categories only
-- (issue 27 items 2–3): its lateral query ran for every category of the organisation and the
-- join's condition (`on c.restricted`) dropped the row after; `c.restricted` inside it makes it a
-- one-time filter, so the unrestricted categories cost no index scan. The same answer: the rules
-- were never used for a category that is not restricted. The caller's context computed it on
-- every first call of a snapshot (private.caller_context), about 10 % of that computation on
-- PGlite.

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
       where c.restricted
         and a.category_id = c.id
         and (a.role = p.role
              or a.group_id in (select m.group_id from public.member_group_members m
                                 where m.user_id = p.id))
      having count(*) > 0
    ) r on c.restricted
   where p.id = member_category_access.user_id and p.is_active and p.organization_id is not null;
end
$$;
