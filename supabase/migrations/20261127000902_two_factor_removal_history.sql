-- A master admin removing a member's second factor (their phone was lost) is recorded in the
-- organisation's history (issue 16 on the history of issue 15): kind member.two_factor_removed,
-- naming the member, written by the function that removes the factors, in its transaction.
-- Nothing is recorded when the member had no factor to remove.

create or replace function public.remove_member_two_factor(user_id uuid)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  _me public.user_profiles := private.caller_profile();
  _target public.user_profiles;
  _removed integer;
begin
  if _me.organization_id is null then
    raise exception 'No organization found';
  end if;
  if not _me.is_active or _me.role <> 'master_admin' then
    raise exception 'Only master admins can remove a member''s two-factor sign-in';
  end if;
  if remove_member_two_factor.user_id = _me.id then
    raise exception 'Remove your own two-factor sign-in from your profile';
  end if;
  select * into _target
  from public.user_profiles p
  where p.id = remove_member_two_factor.user_id and p.organization_id = _me.organization_id;
  if not found then
    raise exception 'User not found';
  end if;
  delete from auth.mfa_factors f where f.user_id = _target.id;
  get diagnostics _removed = row_count;
  delete from auth.sessions s where s.user_id = _target.id;
  if _removed > 0 then
    perform private.log_activity(_me.organization_id, 'member.two_factor_removed', null,
      private.display_name(_target), jsonb_build_object('member_id', _target.id));
  end if;
  return _removed;
end
$$;

-- `create or replace` keeps the grants of 20261127000901_two_factor.sql (execute for
-- authenticated only); restated so that this file says who may call it.
revoke all on function public.remove_member_two_factor(uuid) from public, anon;
grant execute on function public.remove_member_two_factor(uuid) to authenticated;
