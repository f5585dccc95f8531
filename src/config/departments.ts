import {
  Baby,
  BookOpen,
  Camera,
  Clapperboard,
  Globe,
  HandHelping,
  Heart,
  Music,
  Sparkles,
  type LucideIcon,
} from 'lucide-react';

/**
 * The nine department keys, their tile labels and icons (product-spec §2), in the dashboard's
 * order. What a department page shows beyond that is in department-details.ts, so the dashboard
 * does not download it.
 */
export const DEPARTMENTS = [
  { key: 'foster-adopt', label: 'Foster & Adopt', icon: Heart },
  { key: 'r-kids', label: 'R/Kids', icon: Baby },
  { key: 'r-youth', label: 'R/Youth', icon: Sparkles },
  { key: 'creative-media', label: 'Creative Media', icon: Camera },
  { key: 'cge', label: 'CGE', icon: Globe },
  { key: 'sunday-production', label: 'Sunday Production', icon: Clapperboard },
  { key: 'worship', label: 'Worship', icon: Music },
  { key: 'elder-board', label: 'Elder Board', icon: BookOpen },
  { key: 'deacon-board', label: 'Deacon Board', icon: HandHelping },
] as const satisfies readonly { key: string; label: string; icon: LucideIcon }[];

export type DepartmentKey = (typeof DEPARTMENTS)[number]['key'];
