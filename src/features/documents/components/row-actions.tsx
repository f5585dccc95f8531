import {
  Download,
  Eye,
  FilePenLine,
  Pencil,
  RefreshCw,
  Trash2,
  type LucideIcon,
} from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { isTextEditable } from '../../../lib/file-kinds.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';

export type DocumentAction = 'view' | 'properties' | 'content' | 'renew' | 'download' | 'delete';

const ACTIONS: ReadonlyArray<{
  action: DocumentAction;
  label: string;
  Icon: LucideIcon;
  tone: string;
}> = [
  { action: 'view', label: 'View', Icon: Eye, tone: 'text-primary-700' },
  { action: 'properties', label: 'Edit Properties', Icon: Pencil, tone: '' },
  { action: 'content', label: 'Edit Content', Icon: FilePenLine, tone: '' },
  { action: 'renew', label: 'Renew', Icon: RefreshCw, tone: '' },
  { action: 'download', label: 'Download', Icon: Download, tone: '' },
  {
    action: 'delete',
    label: 'Delete',
    Icon: Trash2,
    tone: 'text-destructive-700',
  },
];

/** What a member who may not change a document can still do with it. */
const READ_ONLY_ACTIONS: readonly DocumentAction[] = ['view', 'download'];

/**
 * View, Edit Properties, Edit Content (text-based files only), Download and Delete (spec §2).
 * Icon buttons, a table row has no room for five labels; each is named with its action and the
 * document ("View Budget 2026.pdf"), so a screen reader moving through the buttons hears which
 * document they act on, and shows its action as a tooltip.
 */
export function RowActions({
  document,
  onAction,
  canEdit = true,
}: {
  document: DocumentRecord;
  onAction: (action: DocumentAction, document: DocumentRecord) => void;
  /** False for a Viewer, or a category the member may only view: View and Download only. */
  canEdit?: boolean;
}) {
  const editable = isTextEditable(document.name);
  return (
    <div className="flex flex-wrap items-center justify-end gap-0.5 max-sm:w-[6.5rem]">
      {ACTIONS.filter(
        ({ action }) =>
          (canEdit || READ_ONLY_ACTIONS.includes(action)) &&
          (action !== 'content' || editable) &&
          (action !== 'renew' || document.expiry_date),
      ).map(({ action, label, Icon, tone }) => (
        <Button
          key={action}
          variant="ghost"
          size="icon"
          title={label}
          aria-label={`${label} ${document.name}`}
          onClick={() => onAction(action, document)}
        >
          <Icon className={`h-4 w-4 ${tone}`} aria-hidden="true" />
        </Button>
      ))}
    </div>
  );
}
