import {
  Bell,
  Briefcase,
  FileText,
  FolderOpen,
  History,
  Inbox,
  KeyRound,
  LayoutDashboard,
  Trash2,
  Upload,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { paths } from '../../config/paths.ts';

export interface NavLinkItem {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Active only on this exact path (the dashboard), not on everything below it. */
  end?: boolean;
}

const everyone: NavLinkItem[] = [
  { label: 'Dashboard', to: paths.dashboard, icon: LayoutDashboard, end: true },
  { label: 'Documents', to: paths.documents, icon: FileText },
  { label: 'Upload', to: paths.upload, icon: Upload },
  { label: 'Operations', to: paths.operations, icon: Briefcase },
  { label: 'Reminders', to: paths.reminders, icon: Bell },
  { label: 'Trash', to: paths.trash, icon: Trash2 },
];

const adminsOnly: NavLinkItem[] = [
  { label: 'Users', to: paths.users, icon: Users },
  { label: 'OAuth', to: paths.oauth, icon: KeyRound },
  { label: 'Outbox', to: paths.outbox, icon: Inbox },
  { label: 'Requests', to: paths.requests, icon: FolderOpen },
  { label: 'Activity', to: paths.activity, icon: History },
  { label: 'Categories', to: paths.categories, icon: FolderOpen },
];

/**
 * The navigation links (product-spec §2, plus Reminders and Trash): admins also get Users,
 * OAuth, Outbox, Requests (with the share links), Activity and Categories. A Viewer keeps
 * Upload, whose page says that Viewers cannot upload (leaving it out cost the dashboard's
 * JavaScript more than its budget allows, tests/build/bundle-budget.test.ts).
 */
export function navLinksFor(isAdmin: boolean): NavLinkItem[] {
  return isAdmin ? [...everyone, ...adminsOnly] : everyone;
}
