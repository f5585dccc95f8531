import {
  Download,
  Eye,
  FilePenLine,
  FileUp,
  Link2,
  Mail,
  Pencil,
  RefreshCw,
  Trash2,
  type LucideIcon,
} from 'lucide-react';
import { ActionMenu } from '../../../components/ui/action-menu.tsx';
import { isTextEditable } from '../../../lib/file-kinds.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';

export type DocumentAction =
  | 'view'
  | 'properties'
  | 'content'
  | 'renew'
  | 'new-version'
  | 'download'
  | 'email'
  | 'share'
  | 'delete';

const ACTIONS: ReadonlyArray<{
  action: DocumentAction;
  label: string;
  Icon: LucideIcon;
}> = [
  { action: 'view', label: 'View', Icon: Eye },
  { action: 'properties', label: 'Edit Properties', Icon: Pencil },
  { action: 'content', label: 'Edit Content', Icon: FilePenLine },
  { action: 'renew', label: 'Renew', Icon: RefreshCw },
  { action: 'new-version', label: 'Upload new version', Icon: FileUp },
  { action: 'download', label: 'Download', Icon: Download },
  { action: 'email', label: 'Email', Icon: Mail },
  { action: 'share', label: 'Share', Icon: Link2 },
  { action: 'delete', label: 'Delete', Icon: Trash2 },
];

/**
 * What a member who may not change a document can still do with it (Email as `canEmail` says,
 * Share as `canShare`: a member who may view a document may share it, a Viewer not).
 */
const READ_ONLY_ACTIONS: readonly DocumentAction[] = ['view', 'download', 'email', 'share'];

/**
 * A row's actions (spec §2: View, Edit Properties, Edit Content for text-based files only,
 * Download, Delete; and Renew for a document with an expiry date, a new version of any file,
 * and Email where the page can send documents), as one menu named after the document
 * ("Actions for Budget 2026.pdf"): one target in the row whatever the number of actions, 44 px
 * items on a phone. The name itself opens the preview too.
 */
export function RowActions({
  document,
  onAction,
  canEmail = false,
  canShare = false,
  canEdit = true,
}: {
  document: DocumentRecord;
  onAction: (action: DocumentAction, document: DocumentRecord) => void;
  /** Whether the page offers Email (it is given an e-mail dialog). */
  canEmail?: boolean;
  /** Whether the page offers Share (the preview's Share tab: links for people without an account). */
  canShare?: boolean;
  /** False for a Viewer, or a category the member may only view: no action that changes it. */
  canEdit?: boolean;
}) {
  const editable = isTextEditable(document.name);
  const items = ACTIONS.filter(
    ({ action }) =>
      (canEdit || READ_ONLY_ACTIONS.includes(action)) &&
      (action !== 'content' || editable) &&
      (action !== 'renew' || document.expiry_date) &&
      (action !== 'email' || canEmail) &&
      (action !== 'share' || canShare),
  ).map(({ action, label, Icon }) => ({
    label,
    icon: Icon,
    onSelect: () => onAction(action, document),
    tone: action === 'delete' ? ('destructive' as const) : undefined,
  }));
  return (
    <div className="flex justify-end">
      <ActionMenu label={`Actions for ${document.name}`} items={items} />
    </div>
  );
}
