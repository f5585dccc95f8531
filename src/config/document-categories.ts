/**
 * The specification's 14 document categories (product-spec §3), in its order: every
 * organisation's starting list (`private.starting_document_categories()` in
 * supabase/schemas/021_document_categories.sql). An organisation's own list, with what the
 * member may do in each, is `my_document_categories()`.
 */
export const DOCUMENT_CATEGORIES = [
  'HR',
  'Accounting',
  'Branding',
  'Social Media',
  'Communications',
  'Volunteer/People Management',
  'Streaming: Video & Podcast',
  'Reports',
  'Governance',
  'Legal',
  'Funding',
  'Financial',
  'Operations',
  'Other',
] as const;
export type DocumentCategory = (typeof DOCUMENT_CATEGORIES)[number];
