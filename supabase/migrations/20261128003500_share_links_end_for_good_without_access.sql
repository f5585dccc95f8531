-- Share links end for good when their maker loses access to the document (issues 23 and 25;
-- supabase/schemas/21_share_links.sql). Before, such a link stopped opening, but worked again
-- once the access came back.

-- A link also ends for good when its maker may no longer share its document for any other
-- reason (issue 23's access per category): removed from the group a restricted category names,
-- the category restricted or its rules changed, made a Viewer, or the document moved into a
-- category the maker may not view. Giving the access back later (re-adding the member to the
-- group) does not revive a link its maker had lost. The check runs when the transaction
-- commits, so that rules replaced within one call are judged as they end up.
create function private.end_share_links_without_access(
  organization uuid,
  maker uuid default null,
  document uuid default null
)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.share_links l set revoked_at = now()
   where l.organization_id = end_share_links_without_access.organization
     and l.revoked_at is null
     and l.expires_at > now()
     and (end_share_links_without_access.maker is null
          or l.created_by = end_share_links_without_access.maker)
     and (end_share_links_without_access.document is null
          or l.document_id = end_share_links_without_access.document)
     and not coalesce(private.member_may_share_document(l.created_by, l.document_id), false);
$$;

create function private.end_share_links_after_access_change()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  case tg_table_name
    when 'member_group_members' then
      perform private.end_share_links_without_access(old.organization_id, old.user_id);
    when 'user_profiles' then
      perform private.end_share_links_without_access(new.organization_id, new.id);
    when 'documents' then
      perform private.end_share_links_without_access(new.organization_id, null, new.id);
    else
      -- category_access and document_categories: any link of the organisation may be touched.
      if tg_op = 'DELETE' then
        perform private.end_share_links_without_access(old.organization_id);
      else
        perform private.end_share_links_without_access(new.organization_id);
      end if;
  end case;
  return null;
end
$$;

create constraint trigger member_group_members_end_share_links
  after delete on public.member_group_members
  deferrable initially deferred
  for each row execute function private.end_share_links_after_access_change();

create constraint trigger category_access_end_share_links
  after update or delete on public.category_access
  deferrable initially deferred
  for each row execute function private.end_share_links_after_access_change();

create constraint trigger document_categories_end_share_links
  after update of restricted on public.document_categories
  deferrable initially deferred
  for each row
  when (new.restricted and not old.restricted)
  execute function private.end_share_links_after_access_change();

create constraint trigger user_profiles_end_share_links_of_role
  after update of role on public.user_profiles
  deferrable initially deferred
  for each row
  when (old.role is distinct from new.role)
  execute function private.end_share_links_after_access_change();

create constraint trigger documents_end_share_links_of_category
  after update of category on public.documents
  deferrable initially deferred
  for each row
  when (old.category is distinct from new.category)
  execute function private.end_share_links_after_access_change();

revoke all on function private.end_share_links_without_access(uuid, uuid, uuid)
  from public, anon, authenticated;
revoke all on function private.end_share_links_after_access_change()
  from public, anon, authenticated;
