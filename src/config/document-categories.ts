/**
 * The specification's 14 document categories (product-spec §3), in its order: every
 * organisation's starting list (`private.starting_document_categories()` in
 * supabase/schemas/021_document_categories.sql). What an organisation has now is its own list,
 * read with `useDocumentCategories()` (lib/document-categories.ts); this one is only for tests
 * and for pages that name one of the starting categories (operations-categories.ts).
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

/** A document's category: the name of one of its organisation's categories. */
export type DocumentCategory = string;
