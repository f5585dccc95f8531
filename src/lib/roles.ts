import type { Enums } from './database.types.ts';

/**
 * The roles of a member (product-spec §1, §6, and the read-only Viewer of issue 23): what
 * `user_profiles.role` accepts.
 */
export type Role = Enums<'user_profiles_role'>;

export const ROLE_LABELS: Record<Role, string> = {
  master_admin: 'Master Admin',
  admin: 'Admin',
  user: 'User',
  viewer: 'Viewer',
};

/** What a master admin may move another member between (`update_user_role`). */
export type ChangeableRole = Exclude<Role, 'master_admin'>;

/** Admins and master admins administer the team (spec §6). */
export function isAdminRole(role: Role | null | undefined): boolean {
  return role === 'admin' || role === 'master_admin';
}

export function isMasterAdminRole(role: Role | null | undefined): boolean {
  return role === 'master_admin';
}

/**
 * A Viewer sees and downloads what they may view and changes nothing: the app offers them no
 * upload, edit, rename, renew, delete or restore (the database refuses them all the same).
 */
export function isViewerRole(role: Role | null | undefined): boolean {
  return role === 'viewer';
}
