import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { FileText } from 'lucide-react';
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { formatDate, formatFileSize } from '../../../lib/format.ts';
import type { DocumentRecord } from '../api/document.ts';
import { RowActions, type DocumentAction } from './row-actions.tsx';
import { StatusBadge } from './status-badge.tsx';
import { TagList } from './tag-list.tsx';

/** Every row has this height, so the list can be windowed without measuring rows. */
export const ROW_HEIGHT = 64;

const COLUMNS = [
  { label: 'Name', width: 'w-[28%]' },
  { label: 'Category', width: 'w-[14%]' },
  { label: 'Upload Date', width: 'w-[11%]' },
  { label: 'Expiry Date', width: 'w-[11%]' },
  { label: 'Size', width: 'w-[8%]' },
  { label: 'Status', width: 'w-[10%]' },
  { label: 'Actions', width: 'w-[18%]', right: true },
];

export interface DocumentsTableProps {
  documents: DocumentRecord[];
  onAction: (action: DocumentAction, document: DocumentRecord) => void;
}

/**
 * The documents table (spec §2): Name with up to three tags, Category, Upload Date, Expiry
 * Date (or N/A), Size, Status and Actions. Only the rows in and near the viewport are in the
 * DOM (the page scrolls as usual), so 10,000 documents cost what 30 do.
 */
export const DocumentsTable = memo(function DocumentsTable({
  documents,
  onAction,
}: DocumentsTableProps) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the rows start on the page: the virtualizer measures scrolling from there. Content
  // above the table can change with the list (the status line) or with the window's width.
  useLayoutEffect(() => {
    const measure = () => {
      const top = (bodyRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
      setScrollMargin((previous) => (Math.abs(top - previous) > 1 ? top : previous));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [documents]);

  const virtualizer = useWindowVirtualizer({
    count: documents.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin,
    getItemKey: (index) => documents[index]!.id,
  });
  const items = virtualizer.getVirtualItems();
  const before = items.length ? items[0]!.start - scrollMargin : 0;
  const after = items.length ? virtualizer.getTotalSize() - (items.at(-1)!.end - scrollMargin) : 0;

  return (
    // A named, focusable region, so keyboard users can scroll the wide table sideways on a small
    // screen; `relative` keeps the visually hidden texts inside it from widening the page.
    <div
      role="region"
      aria-label="Documents table"
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-gray-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-blue-600"
    >
      <table
        className="w-full min-w-[960px] table-fixed text-left text-sm"
        aria-rowcount={documents.length + 1}
      >
        <thead className="bg-gray-50 text-xs font-medium tracking-wide text-gray-500 uppercase">
          <tr aria-rowindex={1}>
            {COLUMNS.map(({ label, width, right }) => (
              <th
                key={label}
                scope="col"
                className={`px-4 py-3 ${width} ${right ? 'sticky right-0 bg-gray-50 text-right' : ''}`}
              >
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody ref={bodyRef} className="divide-y divide-gray-100">
          {before > 0 && (
            <tr aria-hidden="true">
              <td colSpan={COLUMNS.length} style={{ height: before, padding: 0 }} />
            </tr>
          )}
          {items.map((item) => (
            <DocumentRow
              key={item.key}
              document={documents[item.index]!}
              rowIndex={item.index + 2}
              onAction={onAction}
            />
          ))}
          {after > 0 && (
            <tr aria-hidden="true">
              <td colSpan={COLUMNS.length} style={{ height: after, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
});

/**
 * One row. Memoised: while typing in the search box, rows that stay on screen are not rendered
 * again.
 */
const DocumentRow = memo(function DocumentRow({
  document,
  rowIndex,
  onAction,
}: {
  document: DocumentRecord;
  rowIndex: number;
  onAction: DocumentsTableProps['onAction'];
}) {
  return (
    <tr aria-rowindex={rowIndex} style={{ height: ROW_HEIGHT }} className="hover:bg-gray-50">
      <td className="overflow-hidden px-4 py-2">
        <div className="flex min-w-0 items-center gap-2">
          <FileText className="h-4 w-4 shrink-0 text-gray-400" aria-hidden="true" />
          <span className="truncate font-medium text-gray-900" title={document.name}>
            {document.name}
          </span>
        </div>
        <TagList tags={document.tags} />
      </td>
      <td className="truncate px-4 py-2 text-gray-700" title={document.category}>
        {document.category}
      </td>
      <td className="px-4 py-2 whitespace-nowrap text-gray-700">
        {formatDate(document.upload_date)}
      </td>
      <td className="px-4 py-2 whitespace-nowrap text-gray-700">
        {document.expiry_date ? formatDate(document.expiry_date) : 'N/A'}
      </td>
      <td className="px-4 py-2 whitespace-nowrap text-gray-700">{formatFileSize(document.size)}</td>
      <td className="px-4 py-2">
        <StatusBadge status={document.status} />
      </td>
      {/* Kept in view on narrow screens, where the table scrolls sideways. */}
      <td className="sticky right-0 bg-white px-2 py-2 shadow-[-8px_0_8px_-8px_rgba(0,0,0,0.15)] lg:shadow-none">
        <RowActions document={document} onAction={onAction} />
      </td>
    </tr>
  );
});
