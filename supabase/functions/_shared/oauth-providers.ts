/**
 * The built-in catalogue of outside services (product-spec §3, "OAuth provider catalogue").
 *
 * This file is the one source of truth: the `oauth` edge function builds authorisation URLs
 * and calls token endpoints from it (the browser never chooses an address or a scope), and the
 * SPA shows the cards from it. It sits in `_shared/` so the SPA never imports a function's own
 * code. Plain data without imports, so it runs on Deno and in Vite.
 */
export interface OAuthProvider {
  id: string;
  name: string;
  description: string;
  category: string;
  /** Where the user is sent to grant access. */
  authorizeUrl: string;
  /** Where the function exchanges a code and refreshes tokens. */
  tokenUrl: string;
  scopes: readonly string[];
  supportsOAuth: true;
  /**
   * Set when the addresses differ per customer (BambooHR lives on the company's own
   * sub-domain): the provider can only be used once the organisation saved its addresses.
   */
  requiresAddressOverride?: true;
}

const GOOGLE_AUTHORIZE_URL = 'https://accounts.google.com/o/oauth2/v2/auth';
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export const OAUTH_PROVIDERS: readonly OAuthProvider[] = [
  {
    id: 'google-workspace',
    name: 'Google Workspace',
    description: 'Read-only access to Google Drive, Calendar and Gmail.',
    category: 'Productivity',
    authorizeUrl: GOOGLE_AUTHORIZE_URL,
    tokenUrl: GOOGLE_TOKEN_URL,
    scopes: [
      'https://www.googleapis.com/auth/drive.readonly',
      'https://www.googleapis.com/auth/calendar.readonly',
      'https://www.googleapis.com/auth/gmail.readonly',
    ],
    supportsOAuth: true,
  },
  {
    id: 'google-search-console',
    name: 'Google Search Console',
    description: 'Read-only search performance data for your website.',
    category: 'Analytics',
    authorizeUrl: GOOGLE_AUTHORIZE_URL,
    tokenUrl: GOOGLE_TOKEN_URL,
    scopes: ['https://www.googleapis.com/auth/webmasters.readonly'],
    supportsOAuth: true,
  },
  {
    id: 'youtube',
    name: 'YouTube',
    description: 'See your channel and upload videos of services and events.',
    category: 'Video Platform',
    authorizeUrl: GOOGLE_AUTHORIZE_URL,
    tokenUrl: GOOGLE_TOKEN_URL,
    scopes: [
      'https://www.googleapis.com/auth/youtube.readonly',
      'https://www.googleapis.com/auth/youtube.upload',
    ],
    supportsOAuth: true,
  },
  {
    id: 'microsoft-365',
    name: 'Microsoft 365',
    description: 'Read-only access to OneDrive files, Outlook mail and calendars.',
    category: 'Productivity',
    authorizeUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
    tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
    scopes: [
      'https://graph.microsoft.com/User.Read',
      'https://graph.microsoft.com/Files.Read.All',
      'https://graph.microsoft.com/Mail.Read',
      'https://graph.microsoft.com/Calendars.Read',
      // Without it Microsoft issues no refresh token.
      'offline_access',
    ],
    supportsOAuth: true,
  },
  {
    id: 'quickbooks',
    name: 'QuickBooks Online',
    description: 'Accounting data: accounts, invoices, bills and reports.',
    category: 'Accounting',
    authorizeUrl: 'https://appcenter.intuit.com/connect/oauth2',
    tokenUrl: 'https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer',
    scopes: ['com.intuit.quickbooks.accounting'],
    supportsOAuth: true,
  },
  {
    id: 'slack',
    name: 'Slack',
    description: 'Read channels and members, and post messages to your team.',
    category: 'Communication',
    authorizeUrl: 'https://slack.com/oauth/v2/authorize',
    tokenUrl: 'https://slack.com/api/oauth.v2.access',
    scopes: ['channels:read', 'chat:write', 'users:read'],
    supportsOAuth: true,
  },
  {
    id: 'mailchimp',
    name: 'Mailchimp',
    description: 'Email newsletters, audiences and campaigns.',
    category: 'Marketing',
    authorizeUrl: 'https://login.mailchimp.com/oauth2/authorize',
    tokenUrl: 'https://login.mailchimp.com/oauth2/token',
    // Mailchimp has no scopes: a token grants the access of the account that approved it.
    scopes: [],
    supportsOAuth: true,
  },
  {
    id: 'gusto',
    name: 'Gusto',
    description: 'Read-only payroll, company and employee information.',
    category: 'Payroll',
    authorizeUrl: 'https://api.gusto.com/oauth/authorize',
    tokenUrl: 'https://api.gusto.com/oauth/token',
    scopes: ['companies:read', 'employees:read', 'payrolls:read'],
    supportsOAuth: true,
  },
  {
    id: 'bamboohr',
    name: 'BambooHR',
    description: 'Read-only employee directory and time-off information.',
    category: 'HRIS',
    // Every BambooHR customer has its own sub-domain: the organisation enters its addresses.
    authorizeUrl: 'https://{companyDomain}.bamboohr.com/authorize.php?request=authorize',
    tokenUrl: 'https://{companyDomain}.bamboohr.com/token.php?request=token',
    scopes: ['openid', 'email', 'employee:read', 'offline_access'],
    supportsOAuth: true,
    requiresAddressOverride: true,
  },
  {
    id: 'github',
    name: 'GitHub',
    description: 'Repositories, your e-mail address and your organisations.',
    category: 'Development',
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    scopes: ['repo', 'user:email', 'read:org'],
    supportsOAuth: true,
  },
];

/** The provider with this id, or undefined for an unknown id. */
export function findProvider(id: string): OAuthProvider | undefined {
  return OAUTH_PROVIDERS.find((provider) => provider.id === id);
}

/** Where a provider sends the user back: `{origin}/oauth/callback/{providerId}` (spec §3). */
export function redirectUriFor(origin: string, providerId: string): string {
  return `${origin}/oauth/callback/${providerId}`;
}
