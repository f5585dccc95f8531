/** The query and mutation keys of the users feature (see src/README.md). */
export const userKeys = {
  profiles: ['user_profiles'] as const,
  /** The organisation's members, newest first. */
  members: (organizationId: string) => ['user_profiles', 'members', organizationId] as const,
  invitations: ['user_invitations'] as const,
  /** The organisation's invitations nobody has accepted yet. */
  pendingInvitations: (organizationId: string) =>
    ['user_invitations', 'pending', organizationId] as const,
  /** The organisation's stored files against its quota (`storage.objects`). */
  storageUsage: (organizationId: string) => ['objects', 'usage', organizationId] as const,
  /**
   * The writes to one member or invitation of the team (a mutation key): their variables
   * name the row, so the row can wait while it changes.
   */
  teamChange: (change: string) => ['team', change] as const,
  teamChanges: ['team'] as const,
};
