import type { Enums } from './database.types.ts';

/** The four roles of a member (product-spec §1, §6): what `user_profiles.role` accepts. */
export type Role = Enums<'user_profiles_role'>;

export const ROLE_LABELS: Record<Role, string> = {
  master_admin: 'Master Admin',
  admin: 'Admin',
  user: 'User',
  viewer: 'Viewer',
};

/** Admins and master admins administer the team (spec §6). */
export function isAdminRole(role: Role | null | undefined): boolean {
  return role === 'admin' || role === 'master_admin';
}

export function isMasterAdminRole(role: Role | null | undefined): boolean {
  return role === 'master_admin';
}
