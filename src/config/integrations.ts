import type { IntegrationCategory } from './integration-categories.ts';
import type { OperationsCategoryKey } from './operations-categories.ts';

/**
 * The seven kinds of service the OAuth Ready card counts (product-spec §2): the kinds the
 * OAuth connections page can connect.
 */
export type OAuthReadyKind =
  | 'workspace-suite'
  | 'search-analytics'
  | 'accounting'
  | 'team-chat'
  | 'email-marketing'
  | 'payroll'
  | 'video-platform';

/** One built-in integration card (product-spec §3, Integration card). */
export interface BuiltInIntegration {
  name: string;
  description: string;
  url: string;
  category: IntegrationCategory;
  tags: readonly string[];
  note?: string;
  /** Set for the seven OAuth-ready kinds; shown as the OAuth badge. */
  oauthKind?: OAuthReadyKind;
}

/**
 * The state corporation commission of the one state the catalogue uses throughout: Virginia's
 * Clerk's Information System, where annual reports are filed and entities looked up.
 */
export const STATE_CORPORATE_PORTAL = {
  name: 'Virginia SCC Clerk’s Information System',
  url: 'https://cis.scc.virginia.gov',
  entitySearchUrl: 'https://cis.scc.virginia.gov/EntitySearch/Index',
} as const;

/** The built-in integrations of each operations category: real services with their addresses. */
export const BUILT_IN_INTEGRATIONS: Record<OperationsCategoryKey, readonly BuiltInIntegration[]> = {
  hr: [
    {
      name: 'MinistryBrands',
      description:
        'Church management software with staff, HR and payroll tools built for ministries.',
      url: 'https://www.ministrybrands.com',
      category: 'HRIS',
      tags: ['HR', 'Church Staff', 'Records'],
    },
    {
      name: 'MinistrySafe',
      description: 'Abuse-prevention training and background checks for staff and volunteers.',
      url: 'https://ministrysafe.com',
      category: 'Safety',
      tags: ['Background Checks', 'Training', 'Child Safety'],
      note: 'Screen everyone who works with children or youth before they serve.',
    },
    {
      name: 'Gusto',
      description: 'Payroll, tax filings and employee self-service for small organizations.',
      url: 'https://gusto.com',
      category: 'Payroll',
      tags: ['Payroll', 'Taxes', 'Onboarding'],
      oauthKind: 'payroll',
    },
    {
      name: 'GuideStone Retirement',
      description: 'Retirement plans and financial planning for churches and ministry staff.',
      url: 'https://www.guidestone.org',
      category: 'Benefits',
      tags: ['Retirement', '403(b)', 'Benefits'],
    },
    {
      name: 'Brotherhood Mutual',
      description:
        'Insurance for churches and ministries: property, liability and workers’ compensation.',
      url: 'https://www.brotherhoodmutual.com',
      category: 'Insurance',
      tags: ['Insurance', 'Liability', 'Property'],
    },
  ],
  accounting: [
    {
      name: 'QuickBooks Online',
      description: 'Bookkeeping, fund accounting reports, budgets and bank reconciliation.',
      url: 'https://quickbooks.intuit.com',
      category: 'Accounting',
      tags: ['Bookkeeping', 'Reports', 'Budgets'],
      oauthKind: 'accounting',
    },
    {
      name: 'BILL',
      description: 'Pay bills and manage approvals for invoices and expenses online.',
      url: 'https://www.bill.com',
      category: 'Invoicing',
      tags: ['Bill Pay', 'Approvals', 'Invoices'],
    },
    {
      name: 'Tithe.ly',
      description: 'Online and text giving, donor statements and giving reports.',
      url: 'https://tithe.ly',
      category: 'Accounting',
      tags: ['Giving', 'Donations', 'Statements'],
    },
    {
      name: 'Thrivent',
      description:
        'Financial planning, generosity guidance and investment services for Christians.',
      url: 'https://www.thrivent.com',
      category: 'Professional',
      tags: ['Financial Planning', 'Investments'],
    },
    {
      name: 'Chase for Business',
      description: 'Business checking, savings and online banking for the church’s accounts.',
      url: 'https://www.chase.com/business',
      category: 'Accounting',
      tags: ['Banking', 'Deposits', 'Statements'],
    },
  ],
  communications: [
    {
      name: 'Slack',
      description: 'Team chat with channels for staff, ministries and volunteers.',
      url: 'https://slack.com',
      category: 'Internal',
      tags: ['Chat', 'Staff', 'Channels'],
      oauthKind: 'team-chat',
    },
    {
      name: 'Mailchimp',
      description: 'Email newsletters and announcements to your congregation.',
      url: 'https://mailchimp.com',
      category: 'Email Marketing',
      tags: ['Newsletters', 'Email', 'Announcements'],
      oauthKind: 'email-marketing',
    },
    {
      name: 'Zoom',
      description: 'Video meetings for staff, boards, small groups and online classes.',
      url: 'https://zoom.us',
      category: 'Video',
      tags: ['Meetings', 'Video Calls', 'Webinars'],
    },
  ],
  legal: [
    {
      name: 'DocuSign',
      description: 'Send contracts, agreements and forms for electronic signature.',
      url: 'https://www.docusign.com',
      category: 'E-Signature',
      tags: ['Contracts', 'Signatures', 'Agreements'],
    },
    {
      name: 'E-Verify',
      description: 'Confirm that new employees are eligible to work in the United States.',
      url: 'https://www.e-verify.gov',
      category: 'Compliance',
      tags: ['Employment', 'I-9', 'Eligibility'],
      note: 'Run by the U.S. Department of Homeland Security with the Social Security Administration.',
    },
    {
      name: 'Virginia SCC Clerk’s Information System',
      description:
        'File annual reports and look up your corporation’s record with the Virginia State Corporation Commission.',
      url: STATE_CORPORATE_PORTAL.url,
      category: 'Compliance',
      tags: ['Annual Report', 'Corporate Filings', 'Good Standing'],
      note: 'Annual reports are due each year by the last day of the month in which the corporation was formed.',
    },
  ],
  branding: [
    {
      name: 'Canva',
      description: 'Design graphics, slides, social posts and printed material from templates.',
      url: 'https://www.canva.com',
      category: 'Design',
      tags: ['Graphics', 'Templates', 'Brand Kit'],
    },
  ],
  'social-media': [
    {
      name: 'Instagram',
      description: 'Share photos, stories and reels from services and events.',
      url: 'https://www.instagram.com',
      category: 'Visual',
      tags: ['Photos', 'Stories', 'Reels'],
    },
    {
      name: 'Facebook',
      description: 'Your church’s page, events and groups for the congregation.',
      url: 'https://www.facebook.com',
      category: 'Free',
      tags: ['Page', 'Events', 'Groups'],
    },
    {
      name: 'Meta Business Suite',
      description: 'Plan posts and answer messages for Facebook and Instagram in one place.',
      url: 'https://business.facebook.com',
      category: 'Management',
      tags: ['Scheduling', 'Inbox', 'Insights'],
    },
    {
      name: 'Linktree',
      description: 'One link in your bio that gathers giving, events, sermons and sign-ups.',
      url: 'https://linktr.ee',
      category: 'Free',
      tags: ['Link in Bio', 'Links'],
    },
  ],
  'volunteer-management': [
    {
      name: 'Planning Center',
      description: 'Church management: people, services scheduling, check-ins, groups and giving.',
      url: 'https://www.planningcenter.com',
      category: 'Scheduling',
      tags: ['Volunteers', 'Scheduling', 'Check-Ins'],
    },
    {
      name: 'Church Community Builder',
      description: 'Church community software for member records, groups, serving and events.',
      url: 'https://www.churchcommunitybuilder.com',
      category: 'Volunteer',
      tags: ['Members', 'Groups', 'Serving'],
    },
    {
      name: 'Jotform',
      description: 'Online forms for event registrations, volunteer sign-ups and surveys.',
      url: 'https://www.jotform.com',
      category: 'Opportunities',
      tags: ['Forms', 'Sign-Ups', 'Surveys'],
    },
  ],
  streaming: [
    {
      name: 'YouTube',
      description: 'Live-stream services and publish sermon videos to your channel.',
      url: 'https://www.youtube.com',
      category: 'Streaming',
      tags: ['Live Stream', 'Sermons', 'Video'],
      oauthKind: 'video-platform',
    },
    {
      name: 'Buzzsprout',
      description: 'Host your sermon podcast and publish it to Apple Podcasts, Spotify and more.',
      url: 'https://www.buzzsprout.com',
      category: 'Podcast',
      tags: ['Podcast', 'Audio', 'Sermons'],
    },
  ],
  it: [
    {
      name: 'Google Workspace',
      description: 'Staff email, calendars, shared drives and documents.',
      url: 'https://workspace.google.com',
      category: 'Enterprise',
      tags: ['Email', 'Calendar', 'Drive'],
      oauthKind: 'workspace-suite',
    },
    {
      name: 'Google Search Console',
      description: 'See how people find your website on Google and fix search problems.',
      url: 'https://search.google.com/search-console',
      category: 'Monitoring',
      tags: ['Search', 'Website', 'Analytics'],
      oauthKind: 'search-analytics',
    },
    {
      name: 'Squarespace',
      description: 'Build and update the church website, with sermons, events and online forms.',
      url: 'https://www.squarespace.com',
      category: 'UI/UX',
      tags: ['Website', 'Hosting', 'Domains'],
    },
  ],
};
