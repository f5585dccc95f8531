import { FileText } from 'lucide-react';
import { memo, useCallback, useMemo } from 'react';
import { ExpiryDate } from '../../../components/expiry-date.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import {
  DataTable,
  type DataTableColumn,
  type SortState,
} from '../../../components/ui/data-table.tsx';
import { formatDate, formatFileSize } from '../../../lib/format.ts';
import type { SearchedDocument, SortColumn } from '../api/search-documents.ts';
import { RowActions, type DocumentAction } from './row-actions.tsx';
import { StatusBadge } from './status-badge.tsx';
import { TagList } from '../../../components/tag-list.tsx';
import { RestrictedLock } from '../../../components/restricted-lock.tsx';
import { SearchSnippet, TextState } from './text-state.tsx';

const NONE: ReadonlySet<string> = new Set();

/** Sorted by the server: a header's value is only what makes it a sort button. */
const BY_SERVER = () => null;

/**
 * The Name column: the name opens the preview (a click or a tap), wrapping to two lines rather
 * than being cut; documents `isNew` says were just uploaded are marked New. Under it the tags,
 * where the search words were found and whether the text is searchable yet.
 */
function nameColumn(
  isNew: (document: SearchedDocument) => boolean,
  onView: (document: SearchedDocument) => void,
  isRestricted: (category: string) => boolean,
): DataTableColumn<SearchedDocument> {
  return {
    key: 'name',
    header: 'Name',
    width: 'w-[28%]',
    mobile: 'title',
    sortValue: BY_SERVER,
    cell: (document) => (
      <>
        <div className="flex min-w-0 items-start gap-2">
          <FileText className="mt-0.5 h-4 w-4 shrink-0 text-gray-400" aria-hidden="true" />
          <button
            type="button"
            onClick={() => onView(document)}
            title={document.name}
            data-document-name
            className="line-clamp-2 min-w-0 rounded text-left font-medium break-words text-gray-900 [overflow-wrap:anywhere] hover:text-primary-700 hover:underline focus-visible:outline-2 focus-visible:outline-primary-600"
          >
            {document.name}
          </button>
          {isRestricted(document.category) && <RestrictedLock />}
          {isNew(document) && (
            <span className="shrink-0 rounded-full bg-primary-100 px-2 py-0.5 text-xs font-medium text-primary-800">
              New
            </span>
          )}
        </div>
        {document.snippet && <SearchSnippet snippet={document.snippet} />}
        {/* A phone's row has room for the name, the snippet, the expiry date and the actions. */}
        <div className="max-sm:hidden">
          <TagList tags={document.tags} />
          <TextState document={document} />
        </div>
      </>
    ),
  };
}

/**
 * The columns of spec §2 after the name, each sorted by the server. On a phone a row shows the name (with its
 * tags), the expiry date and the actions; the rest is on the wide table.
 */
const COLUMNS: DataTableColumn<SearchedDocument>[] = [
  {
    key: 'category',
    header: 'Category',
    width: 'w-[14%]',
    sortValue: BY_SERVER,
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
    sortValue: BY_SERVER,
    cell: (document) => (
      <span className="whitespace-nowrap">{formatDate(document.upload_date)}</span>
    ),
  },
  {
    key: 'expiry_date',
    header: 'Expiry Date',
    width: 'w-[11%]',
    mobile: 'detail',
    sortValue: BY_SERVER,
    cell: (document) => (
      <>
        <ExpiryDate date={document.expiry_date} />
        {/* Said in the Status column on a wide screen, which a phone's row leaves out. */}
        {document.renewal_in_progress && (
          <span className="block text-xs text-gray-600 sm:hidden">Renewal in progress</span>
        )}
      </>
    ),
  },
  {
    key: 'size',
    header: 'Size',
    width: 'w-[8%]',
    sortValue: BY_SERVER,
    cell: (document) => <span className="whitespace-nowrap">{formatFileSize(document.size)}</span>,
  },
  {
    key: 'status',
    header: 'Status',
    width: 'w-[10%]',
    sortValue: BY_SERVER,
    cell: (document) => (
      <StatusBadge
        status={document.status}
        expiryDate={document.expiry_date}
        renewalInProgress={document.renewal_in_progress}
      />
    ),
  },
];

export interface DocumentsTableProps {
  documents: SearchedDocument[];
  onAction: (action: DocumentAction, document: SearchedDocument) => void;
  /** The server's order: its column and direction. */
  sort: { column: SortColumn; descending: boolean } | null;
  onSort: (column: SortColumn) => void;
  /** Ids of the selected documents, and choosing one. */
  selected: ReadonlySet<string>;
  onSelect: (document: SearchedDocument, selected: boolean) => void;
  /** Selects every document on the page (true), or none (false). */
  onSelectAll: (selected: boolean) => void;
  /** Whether rows offer Email (the page has an e-mail dialog). */
  canEmail?: boolean;
  /** Whether rows offer Share (not to a Viewer): it opens the preview on its Share tab. */
  canShare?: boolean;
  /** Ids of documents just uploaded: their rows are tinted and marked New. */
  uploaded?: ReadonlySet<string>;
  /** Whether the member may change documents of this category (else View and Download only). */
  mayEdit?: (category: string) => boolean;
  /** Whether this category is restricted: its documents show the lock. */
  isRestricted?: (category: string) => boolean;
}

const ALWAYS = () => true;
const NEVER = () => false;

/**
 * The documents table (spec §2): a box to select each row (and one in the header for every row
 * of the page), then Name with up to three tags (and
 * where the search words were found, and whether its text is searchable yet), Category, Upload
 * Date, Expiry Date (or N/A), Size, Status and Actions. One page of rows, sorted by the server.
 */
export const DocumentsTable = memo(function DocumentsTable({
  documents,
  onAction,
  sort,
  onSort,
  selected,
  onSelect,
  onSelectAll,
  canEmail = false,
  canShare = false,
  uploaded = NONE,
  mayEdit = ALWAYS,
  isRestricted = NEVER,
}: DocumentsTableProps) {
  const isNew = useCallback((document: SearchedDocument) => uploaded.has(document.id), [uploaded]);
  const actions = useCallback(
    (document: SearchedDocument) => (
      <RowActions
        document={document}
        canEdit={mayEdit(document.category)}
        onAction={(action) => onAction(action, document)}
        canEmail={canEmail}
        canShare={canShare}
      />
    ),
    [onAction, canEmail, canShare, mayEdit],
  );
  const view = useCallback((document: SearchedDocument) => onAction('view', document), [onAction]);
  const selectedOnPage = documents.filter((document) => selected.has(document.id)).length;
  const columns = useMemo<DataTableColumn<SearchedDocument>[]>(
    () => [
      {
        key: 'select',
        header: 'Select',
        width: 'w-[5%]',
        className: 'max-sm:hidden',
        headerCell: (
          <Checkbox
            label="Select all documents on this page"
            hideLabel
            checked={selectedOnPage > 0 && selectedOnPage === documents.length}
            ref={(box) => {
              if (box) box.indeterminate = selectedOnPage > 0 && selectedOnPage < documents.length;
            }}
            onChange={(event) => onSelectAll(event.target.checked)}
          />
        ),
        cell: (document) => (
          <Checkbox
            label={`Select ${document.name}`}
            hideLabel
            checked={selected.has(document.id)}
            onChange={(event) => onSelect(document, event.target.checked)}
          />
        ),
      },
      nameColumn(isNew, view, isRestricted),
      ...COLUMNS,
    ],
    [selected, onSelect, onSelectAll, selectedOnPage, documents.length, isNew, view, isRestricted],
  );
  const sorting = useMemo(
    () => ({
      sort: sort
        ? ({
            key: sort.column,
            direction: sort.descending ? 'descending' : 'ascending',
          } satisfies SortState)
        : null,
      onSort: (key: string) => onSort(key as SortColumn),
    }),
    [sort, onSort],
  );
  return (
    <DataTable
      label="Documents table"
      columns={columns}
      rows={documents}
      rowKey={(document) => document.id}
      rowActions={actions}
      minWidth="min-w-[1000px]"
      sorting={sorting}
      highlighted={isNew}
    />
  );
});
