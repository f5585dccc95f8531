import { queryOptions } from '@tanstack/react-query';
import type { Role } from './roles.ts';
import { supabase } from './supabase.ts';
import { succeeded } from './errors.ts';

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
  /** Admins and master admins must sign in with a second factor. */
  require_two_factor_for_admins: boolean;
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
  const { data } = await succeeded(
    supabase()
      .from('organizations')
      .select('id, name, created_by, created_at, require_two_factor_for_admins')
      .eq('id', organizationId)
      .maybeSingle(),
  );
  return (data as Organization | null) ?? null;
}

/** The signed-in user's profile and organisation, loaded together. */
export interface Account {
  profile: UserProfile;
  organization: Organization | null;
}

/** The caller's profile, then their organisation (if they have one). */
export async function fetchAccount(userId: string): Promise<Account> {
  const profile = await fetchProfile(userId);
  const organization = profile.organization_id
    ? await fetchOrganization(profile.organization_id)
    : null;
  return { profile, organization };
}

/**
 * The account's query keys, led by the table: a write to profiles (a role changed, an
 * organisation created) invalidates `accountKeys.all`.
 */
export const accountKeys = {
  all: ['user_profiles'] as const,
  /** Keyed by user, so one user's account is never shown for another. */
  of: (userId: string) => ['user_profiles', 'account', userId] as const,
};

export const accountQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: accountKeys.of(userId),
    queryFn: () => fetchAccount(userId),
  });
