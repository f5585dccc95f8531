import { FileText } from 'lucide-react';
import { memo, useCallback } from 'react';
import { ExpiryDate } from '../../../components/expiry-date.tsx';
import {
  DataTable,
  type DataTableColumn,
  type SortState,
} from '../../../components/ui/data-table.tsx';
import { formatDate, formatFileSize } from '../../../lib/format.ts';
import type { DocumentRecord } from '../../../lib/documents.ts';
import { RowActions, type DocumentAction } from './row-actions.tsx';
import { StatusBadge } from './status-badge.tsx';
import { TagList } from '../../../components/tag-list.tsx';

/** Every row has this height, so a long list can be windowed without measuring rows. */
export const ROW_HEIGHT = { wide: 64, phone: 76 };

/**
 * The columns of spec §2. On a phone a row shows the name (with its tags), the expiry date and
 * the actions; the rest is on the wide table.
 */
const COLUMNS: DataTableColumn<DocumentRecord>[] = [
  {
    key: 'name',
    header: 'Name',
    width: 'w-[28%]',
    mobile: 'title',
    sortValue: (document) => document.name,
    cell: (document) => (
      <>
        <div className="flex min-w-0 items-center gap-2">
          <FileText className="h-4 w-4 shrink-0 text-gray-400" aria-hidden="true" />
          <span className="truncate font-medium text-gray-900" title={document.name}>
            {document.name}
          </span>
        </div>
        {/* A phone's row has room for the name, the expiry date and the actions only. */}
        <div className="max-sm:hidden">
          <TagList tags={document.tags} />
        </div>
      </>
    ),
  },
  {
    key: 'category',
    header: 'Category',
    width: 'w-[14%]',
    sortValue: (document) => document.category,
    cell: (document) => (
      <span className="block truncate" title={document.category}>
        {document.category}
      </span>
    ),
  },
  {
    key: 'upload_date',
    header: 'Upload Date',
    width: 'w-[11%]',
    sortValue: (document) => document.upload_date,
    cell: (document) => (
      <span className="whitespace-nowrap">{formatDate(document.upload_date)}</span>
    ),
  },
  {
    key: 'expiry_date',
    header: 'Expiry Date',
    width: 'w-[11%]',
    mobile: 'detail',
    sortValue: (document) => document.expiry_date,
    cell: (document) => (
      <>
        <ExpiryDate date={document.expiry_date} />
        {document.renewal_in_progress && (
          <span className="block text-xs whitespace-nowrap text-gray-600">Renewal in progress</span>
        )}
      </>
    ),
  },
  {
    key: 'size',
    header: 'Size',
    width: 'w-[8%]',
    sortValue: (document) => document.size,
    cell: (document) => <span className="whitespace-nowrap">{formatFileSize(document.size)}</span>,
  },
  {
    key: 'status',
    header: 'Status',
    width: 'w-[10%]',
    sortValue: (document) => document.status,
    cell: (document) => <StatusBadge status={document.status} />,
  },
];

export interface DocumentsTableProps {
  documents: DocumentRecord[];
  onAction: (action: DocumentAction, document: DocumentRecord) => void;
  /** The order the rows start in (the Manage link of the dashboard: by expiry date). */
  initialSort?: SortState | null;
}

/** Soonest expiry first, documents without a date last. */
export const BY_EXPIRY: SortState = { key: 'expiry_date', direction: 'ascending' };

/**
 * The documents table (spec §2): Name with up to three tags, Category, Upload Date, Expiry
 * Date (or N/A), Size, Status and Actions, sortable by each column. Only the rows in and near
 * the viewport are in the DOM (the page scrolls as usual), so 10,000 documents cost what 30 do.
 */
export const DocumentsTable = memo(function DocumentsTable({
  documents,
  onAction,
  initialSort = null,
}: DocumentsTableProps) {
  const actions = useCallback(
    (document: DocumentRecord) => <RowActions document={document} onAction={onAction} />,
    [onAction],
  );
  return (
    <DataTable
      label="Documents table"
      columns={COLUMNS}
      rows={documents}
      rowKey={(document) => document.id}
      rowActions={actions}
      rowHeight={ROW_HEIGHT}
      minWidth="min-w-[960px]"
      initialSort={initialSort}
    />
  );
});
