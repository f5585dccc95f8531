/**
 * The dashboard's queries. They read the documents table, so their keys start with
 * `'documents'`: any change to a document (see the documents feature) refreshes them.
 */
export const dashboardKeys = {
  stats: () => ['documents', 'dashboard', 'stats'] as const,
  recent: () => ['documents', 'dashboard', 'recent'] as const,
  renewals: () => ['documents', 'dashboard', 'renewals'] as const,
};
