import {
  Briefcase,
  FileText,
  KeyRound,
  LayoutDashboard,
  Upload,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { paths } from '../../config/paths.ts';

export interface NavLinkItem {
  label: string;
  to: string;
  /** The bar's links have one; the More menu's are words alone (and cost the dashboard nothing). */
  icon?: LucideIcon;
  /** Active only on this exact path (the dashboard), not on everything below it. */
  end?: boolean;
}

/** The specification's links (product-spec §2), in the bar itself. */
const everyone: NavLinkItem[] = [
  { label: 'Dashboard', to: paths.dashboard, icon: LayoutDashboard, end: true },
  { label: 'Documents', to: paths.documents, icon: FileText },
  { label: 'Upload', to: paths.upload, icon: Upload },
  { label: 'Operations', to: paths.operations, icon: Briefcase },
];

const adminsOnly: NavLinkItem[] = [
  { label: 'Users', to: paths.users, icon: Users },
  { label: 'OAuth', to: paths.oauth, icon: KeyRound },
];

/** The pages beyond the specification, in the bar's "More" menu so that the bar fits. */
const moreForEveryone: NavLinkItem[] = [
  { label: 'Reminders', to: paths.reminders },
  { label: 'Trash', to: paths.trash },
];

const moreForAdmins: NavLinkItem[] = [
  { label: 'Outbox', to: paths.outbox },
  { label: 'Requests', to: paths.requests },
  { label: 'Activity', to: paths.activity },
  { label: 'Categories', to: paths.categories },
  { label: 'Settings', to: paths.settings },
];

/** The bar's links: the specification's four, and Users and OAuth for admins. */
export function navLinksFor(isAdmin: boolean): NavLinkItem[] {
  return isAdmin ? [...everyone, ...adminsOnly] : everyone;
}

/** The "More" menu: Reminders and Trash, and Outbox, Requests, Activity, Categories and Settings for admins. */
export function moreLinksFor(isAdmin: boolean): NavLinkItem[] {
  return isAdmin ? [...moreForEveryone, ...moreForAdmins] : moreForEveryone;
}
