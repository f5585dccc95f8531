/** Every route of the app in one place (product-spec §2, route table). */
export const paths = {
  dashboard: '/',
  documents: '/documents',
  /** The list filtered by expiry state (the dashboard's counters, reminder e-mails). */
  documentsExpiring: (state: 'overdue' | 'soon') => `/documents?expiry=${state}`,
  /** The list ordered by expiry date (the dashboard's Manage). */
  documentsByExpiry: '/documents?sort=expiry_date',
  /** The list with one document open (links from the dashboard, e-mails and calendars). */
  document: (id: string) => `/documents?document=${encodeURIComponent(id)}`,
  upload: '/upload',
  /** The upload form with its category and tags filled in (a department's empty state). */
  uploadWith: ({ category, tags }: { category?: string; tags?: readonly string[] }) => {
    const query = new URLSearchParams();
    if (category) query.set('category', category);
    if (tags && tags.length > 0) query.set('tags', tags.join(', '));
    const text = query.toString();
    return text ? `/upload?${text}` : '/upload';
  },
  operations: '/operations',
  operationsCategory: (category: string) => `/operations/${category}`,
  department: (department: string) => `/department/${department}`,
  users: '/users',
  oauth: '/oauth',
  /** One's reminders and calendar; admins also set the organisation's reminders. */
  reminders: '/reminders',
  /** Every e-mail of the organisation (admins). */
  outbox: '/outbox',
  /** Deleted documents, until they are deleted for ever. */
  trash: '/trash',
  /** The organisation's history (admins). */
  activity: '/activity',
  /** Document requests and every share link that works now (admins). */
  requests: '/requests',
  /** The organisation's name, time zone, logo, departments and e-mail (admins). */
  settings: '/settings',
  /** The organisation's document categories, who may see them, and its groups (admins). */
  categories: '/categories',
  oauthCallback: (providerId: string) => `/oauth/callback/${providerId}`,
  invitation: (token: string) => `/invite/${token}`,
  /** Where a password reset e-mail's link leads (`?token_hash=…&type=recovery`). */
  resetPassword: '/reset-password',
  /** Where a confirmation e-mail's link leads (`?token_hash=…&type=email_change|signup`). */
  confirmEmail: '/confirm-email',
} as const;

/** Route patterns for the router. */
export const routePatterns = {
  dashboard: '/',
  documents: '/documents',
  upload: '/upload',
  operations: '/operations',
  operationsCategory: '/operations/:category',
  department: '/department/:department',
  users: '/users',
  oauth: '/oauth',
  reminders: '/reminders',
  outbox: '/outbox',
  trash: '/trash',
  activity: '/activity',
  requests: '/requests',
  sharedDocument: '/s/:token',
  requestUpload: '/r/:token',
  settings: '/settings',
  categories: '/categories',
  oauthCallback: '/oauth/callback/:providerId',
  invitation: '/invite/:token?',
  resetPassword: '/reset-password',
  confirmEmail: '/confirm-email',
} as const;
