import { Download, Eye, FilePenLine, Pencil, Trash2, type LucideIcon } from 'lucide-react';
import { isTextEditable } from '../../../lib/file-kinds.ts';
import type { DocumentRecord } from '../api/document.ts';

export type DocumentAction = 'view' | 'properties' | 'content' | 'download' | 'delete';

const ACTIONS: ReadonlyArray<{
  action: DocumentAction;
  label: string;
  Icon: LucideIcon;
  tone: string;
}> = [
  { action: 'view', label: 'View', Icon: Eye, tone: 'text-blue-600 hover:bg-blue-50' },
  {
    action: 'properties',
    label: 'Edit Properties',
    Icon: Pencil,
    tone: 'text-gray-600 hover:bg-gray-100',
  },
  {
    action: 'content',
    label: 'Edit Content',
    Icon: FilePenLine,
    tone: 'text-purple-600 hover:bg-purple-50',
  },
  {
    action: 'download',
    label: 'Download',
    Icon: Download,
    tone: 'text-green-600 hover:bg-green-50',
  },
  { action: 'delete', label: 'Delete', Icon: Trash2, tone: 'text-red-600 hover:bg-red-50' },
];

/**
 * View, Edit Properties, Edit Content (text-based files only), Download and Delete (spec §2).
 * Icon buttons whose accessible names are the action's words.
 */
export function RowActions({
  document,
  onAction,
}: {
  document: DocumentRecord;
  onAction: (action: DocumentAction, document: DocumentRecord) => void;
}) {
  const editable = isTextEditable(document.name);
  return (
    <div className="flex items-center justify-end gap-0.5">
      {ACTIONS.filter(({ action }) => action !== 'content' || editable).map(
        ({ action, label, Icon, tone }) => (
          <button
            key={action}
            type="button"
            title={label}
            aria-label={label}
            onClick={() => onAction(action, document)}
            className={`rounded-md p-2 focus-visible:outline-2 focus-visible:outline-blue-600 ${tone}`}
          >
            <Icon className="h-4 w-4" aria-hidden="true" />
          </button>
        ),
      )}
    </div>
  );
}
