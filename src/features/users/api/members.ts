import type { Tables } from '../../../lib/database.types.ts';
import { supabase } from '../../../lib/supabase.ts';

export type Member = Pick<
  Tables<'user_profiles'>,
  'id' | 'email' | 'full_name' | 'role' | 'is_active' | 'last_login' | 'created_at'
>;

/** The organisation's members, newest first. */
export async function listMembers(organizationId: string): Promise<Member[]> {
  const { data, error } = await supabase()
    .from('user_profiles')
    .select('id, email, full_name, role, is_active, last_login, created_at')
    .eq('organization_id', organizationId)
    .order('created_at', { ascending: false });
  if (error) {
    console.error('Failed to fetch users', error);
    throw new Error('Failed to fetch users');
  }
  return data;
}

/** Moves a member between user and admin (master admins only; rpc `update_user_role`). */
export async function updateUserRole(userId: string, role: 'user' | 'admin'): Promise<void> {
  const { error } = await supabase().rpc('update_user_role', { user_id: userId, new_role: role });
  if (error) throw new Error(error.message);
}

/** Deactivates a member: they keep their account but see nothing of the organisation. */
export async function deactivateUser(userId: string): Promise<void> {
  const { error } = await supabase().rpc('deactivate_user', { user_id: userId });
  if (error) throw new Error(error.message);
}

/** Gives a deactivated member their access back. */
export async function reactivateUser(userId: string): Promise<void> {
  const { error } = await supabase().rpc('reactivate_user', { user_id: userId });
  if (error) throw new Error(error.message);
}
