import type { Role } from './roles.ts';
import { supabase } from './supabase.ts';

/** The signed-in user's profile (table `user_profiles`). */
export interface UserProfile {
  id: string;
  email: string;
  full_name: string | null;
  role: Role;
  is_active: boolean;
  organization_id: string | null;
  invited_by: string | null;
  invited_at: string | null;
  last_login: string | null;
  created_at: string;
}

export interface Organization {
  id: string;
  name: string;
  created_by: string | null;
  created_at: string;
}

/**
 * The caller's profile. A new auth user gets one from a database trigger, so a missing row is
 * an error here, not something the browser creates.
 */
export async function fetchProfile(userId: string): Promise<UserProfile> {
  const { data, error } = await supabase()
    .from('user_profiles')
    .select(
      'id, email, full_name, role, is_active, organization_id, invited_by, invited_at, last_login, created_at',
    )
    .eq('id', userId)
    .single();
  if (error) throw new Error('Failed to fetch user profile');
  return data as UserProfile;
}

export async function fetchOrganization(organizationId: string): Promise<Organization | null> {
  const { data, error } = await supabase()
    .from('organizations')
    .select('id, name, created_by, created_at')
    .eq('id', organizationId)
    .maybeSingle();
  if (error) throw new Error(error.message);
  return (data as Organization | null) ?? null;
}
