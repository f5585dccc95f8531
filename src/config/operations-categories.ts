import {
  Calculator,
  HandHeart,
  Monitor,
  Palette,
  Scale,
  Share2,
  MessageSquare,
  Users,
  Video,
  type LucideIcon,
} from 'lucide-react';
import type { Enums } from '../lib/database.types.ts';
import type { DocumentCategory } from './document-categories.ts';

/** The nine operations categories: ids and tile labels (product-spec §2, Operations Center). */
export const OPERATIONS_CATEGORIES = [
  { key: 'hr', label: 'HR' },
  { key: 'accounting', label: 'Accounting' },
  { key: 'legal', label: 'Legal' },
  { key: 'branding', label: 'Branding' },
  { key: 'social-media', label: 'Social Media' },
  { key: 'communications', label: 'Communications' },
  { key: 'volunteer-management', label: 'Volunteer/People Management' },
  { key: 'streaming', label: 'Streaming: Video & Podcast' },
  { key: 'it', label: 'IT & Technology' },
] as const satisfies readonly { key: OperationsCategoryKey; label: string }[];

/** The keys `custom_integrations.operations_category` accepts (its check constraint). */
export type OperationsCategoryKey = Enums<'custom_integrations_operations_category'>;

/** What an integration category page shows about its category (product-spec §2, §3). */
export interface OperationsCategoryDetails {
  key: OperationsCategoryKey;
  /** Tile label on the Operations Center. */
  label: string;
  /** Page title. */
  title: string;
  description: string;
  icon: LucideIcon;
  /** Heading and text of the category panel. */
  panelTitle: string;
  panelText: string;
  /**
   * The category text of the Related Documents card: documents whose category or any tag
   * contains it, case-insensitively. Chosen so that it is contained in the matching document
   * category's name (the key `social-media` is not contained in `Social Media`).
   */
  matchTerm: string;
  /** The document category (of the 14) whose documents the category document list shows. */
  documentCategory: DocumentCategory | null;
}

const DETAILS: Record<OperationsCategoryKey, Omit<OperationsCategoryDetails, 'key' | 'label'>> = {
  hr: {
    title: 'HR Management',
    description:
      'Staff records, payroll, benefits, safety screening and insurance for your church team.',
    icon: Users,
    panelTitle: 'People and payroll in one place',
    panelText:
      'Keep hiring, background checks, payroll and benefits organised. Open each service below, and save the name of your contact there so the whole team knows whom to call.',
    matchTerm: 'hr',
    documentCategory: 'HR',
  },
  accounting: {
    title: 'Financial Operations',
    description: 'Bookkeeping, bill payment, online giving, financial planning and banking.',
    icon: Calculator,
    panelTitle: 'Stewardship of your finances',
    panelText:
      'Reach your bookkeeping, bill payment, giving and banking services from one page, and keep budgets, statements and receipts with your documents.',
    matchTerm: 'accounting',
    documentCategory: 'Accounting',
  },
  communications: {
    title: 'Communications',
    description: 'Staff chat, email newsletters and video meetings.',
    icon: MessageSquare,
    panelTitle: 'Stay connected',
    panelText:
      'Talk with your staff and volunteers, send newsletters to your congregation and meet online.',
    matchTerm: 'communications',
    documentCategory: 'Communications',
  },
  legal: {
    title: 'Legal Compliance',
    description:
      'Contracts and e-signatures, employment eligibility and your corporate filings with the state.',
    icon: Scale,
    panelTitle: 'Keep your organization in good standing',
    panelText:
      'Sign agreements electronically, confirm employment eligibility and track your annual report with the Virginia State Corporation Commission.',
    matchTerm: 'legal',
    documentCategory: 'Legal',
  },
  branding: {
    title: 'Branding',
    description: 'Logos, colours, templates and the design tools that keep your look consistent.',
    icon: Palette,
    panelTitle: 'A consistent look',
    panelText:
      'Design graphics, slides and printed material with your church’s logo, colours and fonts, and keep brand guidelines with your documents.',
    matchTerm: 'branding',
    documentCategory: 'Branding',
  },
  'social-media': {
    title: 'Social Media',
    description: 'Your church’s accounts on the social networks and the tools to manage them.',
    icon: Share2,
    panelTitle: 'Share what God is doing',
    panelText:
      'Post updates, plan content and answer messages across your social accounts, with one link that gathers them all.',
    matchTerm: 'social media',
    documentCategory: 'Social Media',
  },
  'volunteer-management': {
    title: 'Volunteer/People Management',
    description: 'Church management, volunteer scheduling, groups and sign-up forms.',
    icon: HandHeart,
    panelTitle: 'Care for your people',
    panelText:
      'Schedule volunteers, keep member records, organise groups and collect sign-ups for events and serving teams.',
    matchTerm: 'volunteer',
    documentCategory: 'Volunteer/People Management',
  },
  streaming: {
    title: 'Streaming: Video & Podcast',
    description: 'Live-stream services and publish sermons as video and podcast.',
    icon: Video,
    panelTitle: 'Reach people beyond Sunday morning',
    panelText:
      'Stream services live, keep a library of sermons and publish your podcast to the major listening apps.',
    matchTerm: 'streaming',
    documentCategory: 'Streaming: Video & Podcast',
  },
  it: {
    title: 'IT & Technology',
    description: 'Email and accounts, your website and how people find it on search engines.',
    icon: Monitor,
    panelTitle: 'The technology behind your ministry',
    panelText:
      'Manage staff email and shared drives, keep your website up to date and see how people find you on Google.',
    matchTerm: 'it',
    documentCategory: null,
  },
};

/** Looks up a category by its route key; undefined for an unknown key (Category Not Found). */
export function findOperationsCategory(
  key: string | undefined,
): OperationsCategoryDetails | undefined {
  const entry = OPERATIONS_CATEGORIES.find((category) => category.key === key);
  return entry && { key: entry.key, label: entry.label, ...DETAILS[entry.key] };
}
