/** The query keys of the invitations feature (see src/README.md). */
export const invitationKeys = {
  /** The invitation page's lookup of one token. */
  lookup: (token: string) => ['user_invitations', 'lookup', token] as const,
};
