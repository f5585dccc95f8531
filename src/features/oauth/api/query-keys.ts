/** The query keys of the oauth feature (see src/README.md). */
export const oauthKeys = {
  connections: ['oauth_connections'] as const,
  /** The signed-in user's active connections. */
  activeConnections: (userId: string) => ['oauth_connections', 'active', userId] as const,
  /** Refreshing one connection (a mutation): which connections are being refreshed now. */
  refresh: ['oauth_connections', 'refresh'] as const,
  providerSettings: ['oauth_provider_settings'] as const,
  /** The organisation's provider configurations, without secrets. */
  organizationProviderSettings: (organizationId: string) =>
    ['oauth_provider_settings', organizationId] as const,
  /**
   * The outcome of one answer of a provider to the callback page. Not under
   * `oauth_connections`: invalidating the connections must not complete the answer again.
   */
  callback: (providerId: string, query: string) => ['oauth_callback', providerId, query] as const,
};
