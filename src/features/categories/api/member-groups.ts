import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { documentCategoryKeys } from '../../../lib/document-categories.ts';
import { succeeded } from '../../../lib/errors.ts';
import { supabase } from '../../../lib/supabase.ts';
import type { Role } from '../../../lib/roles.ts';
import { groupKeys, memberKeys } from './query-keys.ts';

export interface MemberGroup {
  id: string;
  name: string;
  memberIds: string[];
}

export interface OrganizationMember {
  id: string;
  name: string;
  email: string;
  role: Role;
}

/** The organisation's groups, by name, with their members. */
export async function listGroups(): Promise<MemberGroup[]> {
  const { data } = await succeeded(
    supabase()
      .from('member_groups')
      .select('id, name, member_group_members(user_id)')
      .order('name'),
    'Failed to load the groups',
  );
  return (data ?? []).map((group) => ({
    id: group.id,
    name: group.name,
    memberIds: group.member_group_members.map((member) => member.user_id),
  }));
}

export const groupsQueryOptions = () =>
  queryOptions({ queryKey: groupKeys.list(), queryFn: listGroups });

export const useGroups = () => useQuery(groupsQueryOptions());

/** The organisation's active members, who may be put in groups. */
export async function listActiveMembers(): Promise<OrganizationMember[]> {
  const { data } = await succeeded(
    supabase()
      .from('user_profiles')
      .select('id, full_name, email, role')
      .eq('is_active', true)
      .not('organization_id', 'is', null)
      .order('full_name', { nullsFirst: false })
      .order('email'),
    'Failed to load the members',
  );
  return (data ?? []).map((member) => ({
    id: member.id,
    name: member.full_name || member.email,
    email: member.email,
    role: member.role,
  }));
}

export const useActiveMembers = () =>
  useQuery(queryOptions({ queryKey: memberKeys.list(), queryFn: listActiveMembers }));

/** A group's members and names decide who may see restricted categories: all of it is re-read. */
function useGroupsChanged() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: groupKeys.all }),
      queryClient.invalidateQueries({ queryKey: documentCategoryKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['documents'] }),
    ]);
}

export async function createGroup(name: string): Promise<string> {
  const { data } = await succeeded(supabase().rpc('create_member_group', { name }));
  return data;
}

export async function renameGroup({ id, name }: { id: string; name: string }): Promise<void> {
  await succeeded(supabase().rpc('rename_member_group', { group_id: id, new_name: name }));
}

export async function deleteGroup(id: string): Promise<void> {
  await succeeded(supabase().rpc('delete_member_group', { group_id: id }));
}

export async function setGroupMembers({
  id,
  memberIds,
}: {
  id: string;
  memberIds: readonly string[];
}): Promise<void> {
  await succeeded(
    supabase().rpc('set_member_group_members', { group_id: id, user_ids: [...memberIds] }),
  );
}

export function useCreateGroup() {
  const changed = useGroupsChanged();
  return useMutation({
    mutationFn: createGroup,
    meta: { errorMessage: 'Failed to add the group' },
    onSuccess: changed,
  });
}

export function useRenameGroup() {
  const changed = useGroupsChanged();
  return useMutation({
    mutationFn: renameGroup,
    meta: { errorMessage: 'Failed to rename the group' },
    onSuccess: changed,
  });
}

export function useDeleteGroup() {
  const changed = useGroupsChanged();
  return useMutation({
    mutationFn: deleteGroup,
    meta: { errorMessage: 'Failed to delete the group' },
    onSuccess: changed,
  });
}

export function useSetGroupMembers() {
  const changed = useGroupsChanged();
  return useMutation({
    mutationFn: setGroupMembers,
    meta: { errorMessage: 'Failed to save the members of the group' },
    onSuccess: changed,
  });
}
