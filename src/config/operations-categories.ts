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
] as const;

export type OperationsCategoryKey = (typeof OPERATIONS_CATEGORIES)[number]['key'];
