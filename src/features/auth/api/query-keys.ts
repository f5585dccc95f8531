/** The query keys of the auth feature (see src/README.md). */
export const authKeys = {
  /** GoTrue's public settings (`GET /auth/v1/settings`): whether sign-up is open. */
  settings: () => ['auth_settings'] as const,
};
