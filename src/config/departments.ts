/** The nine department keys and their tile labels (product-spec §2), in the dashboard's order. */
export const DEPARTMENTS = [
  { key: 'foster-adopt', label: 'Foster & Adopt' },
  { key: 'r-kids', label: 'R/Kids' },
  { key: 'r-youth', label: 'R/Youth' },
  { key: 'creative-media', label: 'Creative Media' },
  { key: 'cge', label: 'CGE' },
  { key: 'sunday-production', label: 'Sunday Production' },
  { key: 'worship', label: 'Worship' },
  { key: 'elder-board', label: 'Elder Board' },
  { key: 'deacon-board', label: 'Deacon Board' },
] as const;

export type DepartmentKey = (typeof DEPARTMENTS)[number]['key'];
