import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { memo, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useMediaQuery } from './use-media-query.ts';

/** How a column shows on a phone, where the table becomes a list of compact rows. */
export type MobileCell = 'title' | 'detail' | 'hidden';

export interface DataTableColumn<Row> {
  key: string;
  header: string;
  /** What the header shows instead of `header` (a "select all" box); `header` still names it. */
  headerCell?: ReactNode;
  cell: (row: Row) => ReactNode;
  /** A width class for the wide layout, e.g. `w-[28%]`. */
  width?: string;
  /** Makes the header a sort button; rows are compared by this value (empty values last). */
  sortValue?: (row: Row) => string | number | null | undefined;
  /**
   * On a phone: `title` is the row's first line, `detail` a labelled line under it, `hidden`
   * is left out (the wide layout keeps every column). Default `hidden`.
   */
  mobile?: MobileCell;
  /** Extra classes of this column's cells. */
  className?: string;
}

export type SortDirection = 'ascending' | 'descending';
export interface SortState {
  key: string;
  direction: SortDirection;
}

export interface DataTableProps<Row> {
  /** The accessible name of the table's box, e.g. "Documents table". */
  label: string;
  /** The table's own name for screen readers, e.g. "Members of your organization". */
  caption?: string;
  columns: readonly DataTableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** The row's actions, in a last column that stays in view while the table scrolls sideways. */
  rowActions?: (row: Row) => ReactNode;
  actionsHeader?: string;
  /** The width class of the actions column in the wide layout. */
  actionsWidth?: string;
  /**
   * Fixed row heights (wide layout and phone). With them, long lists (more than
   * `VIRTUALIZE_ABOVE` rows) render only the rows on and near the screen.
   */
  rowHeight?: { wide: number; phone: number };
  /** The minimum width of the wide layout (a class), below which its box scrolls sideways. */
  minWidth?: string;
  /**
   * For rows sorted elsewhere (by the server): the order they are in, and what a click on a
   * sortable header asks for. Without it the table sorts its rows itself.
   */
  sorting?: { sort: SortState | null; onSort: (key: string) => void };
  /** Rows to set apart (e.g. just uploaded): a tinted background; say why in a cell too. */
  highlighted?: (row: Row) => boolean;
}

/** Lists longer than this are windowed, when rows have a fixed height. */
export const VIRTUALIZE_ABOVE = 100;

/** The phone layout applies below Tailwind's `sm` breakpoint (640 px). */
const PHONE_QUERY = '(max-width: 639.98px)';

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: 'base' });
}

function sortRows<Row>(
  rows: readonly Row[],
  columns: readonly DataTableColumn<Row>[],
  sort: SortState | null,
): readonly Row[] {
  const column = sort ? columns.find(({ key }) => key === sort.key) : undefined;
  if (!sort || !column?.sortValue) return rows;
  const value = column.sortValue;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    // Empty values stay last whichever the direction.
    if (isEmpty(x) || isEmpty(y)) return Number(isEmpty(x)) - Number(isEmpty(y));
    return sign * compare(x, y);
  });
}

const MOBILE_CELL: Record<MobileCell, string> = {
  title: 'max-sm:col-start-1 max-sm:row-start-1 max-sm:p-0',
  detail: 'max-sm:col-start-1 max-sm:p-0 max-sm:text-xs',
  hidden: 'max-sm:hidden',
};

/**
 * A table of rows with sortable headers and row actions (spec §2 tables). Wide screens get a
 * real table whose box scrolls sideways when narrower than `minWidth`, with the actions column
 * kept in view; on a phone each row becomes a compact block: its title, a few details, each with
 * its column's name, and its actions, nothing wider than the screen (the header row and its sort
 * buttons are left out there). The elements keep their table roles in both layouts. Long lists
 * with fixed row heights are windowed against the page's own scrolling.
 */
export function DataTable<Row>({
  label,
  caption,
  columns,
  rows,
  rowKey,
  rowActions,
  actionsHeader = 'Actions',
  actionsWidth = 'w-[18%]',
  rowHeight,
  minWidth = 'min-w-[720px]',
  sorting,
  highlighted,
}: DataTableProps<Row>) {
  const [ownSort, setSort] = useState<SortState | null>(null);
  const sort = sorting ? sorting.sort : ownSort;
  const sorted = useMemo(
    () => (sorting ? rows : sortRows(rows, columns, ownSort)),
    [rows, columns, ownSort, sorting],
  );
  const phone = useMediaQuery(PHONE_QUERY);
  const height = rowHeight ? (phone ? rowHeight.phone : rowHeight.wide) : undefined;
  const windowed = height !== undefined && sorted.length > VIRTUALIZE_ABOVE;
  const span = columns.length + (rowActions ? 1 : 0);

  const toggleSort = (key: string) =>
    sorting
      ? sorting.onSort(key)
      : setSort((current) => ({
          key,
          direction:
            current?.key === key && current.direction === 'ascending' ? 'descending' : 'ascending',
        }));

  return (
    // A named, focusable box, so keyboard users can scroll a wide table sideways; `relative`
    // keeps visually hidden texts inside it from widening the page.
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-gray-200 bg-white shadow-sm focus-visible:outline-2 focus-visible:outline-primary-600"
    >
      <table
        role="table"
        className={`w-full table-fixed text-left text-sm max-sm:block ${minWidth} max-sm:min-w-0`}
        aria-rowcount={sorted.length + 1}
      >
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead
          role="rowgroup"
          className="bg-gray-50 text-xs font-medium tracking-wide text-gray-500 uppercase max-sm:hidden"
        >
          <tr role="row" aria-rowindex={1}>
            {columns.map((column) => (
              <HeaderCell
                key={column.key}
                column={column}
                sort={sort?.key === column.key ? sort.direction : null}
                onSort={toggleSort}
              />
            ))}
            {rowActions && (
              <th
                role="columnheader"
                scope="col"
                className={`sticky right-0 bg-gray-50 px-4 py-3 text-right ${actionsWidth}`}
              >
                {actionsHeader}
              </th>
            )}
          </tr>
        </thead>
        {windowed ? (
          <WindowedBody
            rows={sorted}
            height={height}
            span={span}
            render={(row, index) => (
              <DataRow
                key={rowKey(row)}
                row={row}
                rowIndex={index + 2}
                columns={columns}
                rowActions={rowActions}
                height={height}
                highlighted={highlighted?.(row) ?? false}
              />
            )}
          />
        ) : (
          <tbody role="rowgroup" className="divide-y divide-gray-100 max-sm:block">
            {sorted.map((row, index) => (
              <DataRow
                key={rowKey(row)}
                row={row}
                rowIndex={index + 2}
                columns={columns}
                rowActions={rowActions}
                height={height}
                highlighted={highlighted?.(row) ?? false}
              />
            ))}
          </tbody>
        )}
      </table>
    </div>
  );
}

function HeaderCell<Row>({
  column,
  sort,
  onSort,
}: {
  column: DataTableColumn<Row>;
  sort: SortDirection | null;
  onSort: (key: string) => void;
}) {
  const Icon = sort === 'ascending' ? ArrowUp : sort === 'descending' ? ArrowDown : ArrowUpDown;
  return (
    <th
      role="columnheader"
      scope="col"
      aria-sort={column.sortValue ? (sort ?? 'none') : undefined}
      className={`px-4 py-3 ${column.width ?? ''}`}
    >
      {column.sortValue ? (
        <button
          type="button"
          onClick={() => onSort(column.key)}
          className="-mx-1 inline-flex items-center gap-1 rounded px-1 uppercase hover:text-gray-800 focus-visible:outline-2 focus-visible:outline-primary-600"
        >
          {column.header}
          <Icon
            className={`h-3.5 w-3.5 ${sort ? 'text-gray-700' : 'text-gray-400'}`}
            aria-hidden="true"
          />
        </button>
      ) : (
        (column.headerCell ?? column.header)
      )}
    </th>
  );
}

/**
 * The rows in and near the viewport, between two spacer rows, measured against the window's
 * scrolling: 10,000 rows cost what 30 do.
 */
function WindowedBody<Row>({
  rows,
  height,
  span,
  render,
}: {
  rows: readonly Row[];
  height: number;
  span: number;
  render: (row: Row, index: number) => ReactNode;
}) {
  const bodyRef = useRef<HTMLTableSectionElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the rows start on the page: the virtualizer measures scrolling from there. Content
  // above the table can change with the list or with the window's width.
  useLayoutEffect(() => {
    const measure = () => {
      const top = (bodyRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
      setScrollMargin((previous) => (Math.abs(top - previous) > 1 ? top : previous));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  }, [rows]);

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => height,
    overscan: 8,
    scrollMargin,
  });
  // A new row height (the phone layout came or went) invalidates every position.
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, height]);
  const items = virtualizer.getVirtualItems();
  const before = items.length ? items[0]!.start - scrollMargin : 0;
  const after = items.length ? virtualizer.getTotalSize() - (items.at(-1)!.end - scrollMargin) : 0;

  return (
    <tbody ref={bodyRef} role="rowgroup" className="divide-y divide-gray-100 max-sm:block">
      {before > 0 && <Spacer height={before} span={span} />}
      {items.map((item) => render(rows[item.index]!, item.index))}
      {after > 0 && <Spacer height={after} span={span} />}
    </tbody>
  );
}

function Spacer({ height, span }: { height: number; span: number }) {
  return (
    <tr aria-hidden="true" className="max-sm:block">
      <td colSpan={span} style={{ height, padding: 0 }} className="max-sm:block" />
    </tr>
  );
}

/**
 * One row. Memoised: while a search narrows the list, rows that stay on screen are not rendered
 * again (pass stable `columns` and `rowActions`).
 */
const DataRow = memo(function DataRow<Row>({
  row,
  rowIndex,
  columns,
  rowActions,
  height,
  highlighted,
}: {
  row: Row;
  rowIndex: number;
  columns: readonly DataTableColumn<Row>[];
  rowActions?: (row: Row) => ReactNode;
  height: number | undefined;
  highlighted: boolean;
}) {
  return (
    <tr
      role="row"
      aria-rowindex={rowIndex}
      style={height ? { height } : undefined}
      data-highlighted={highlighted || undefined}
      className={`${highlighted ? 'bg-primary-50 hover:bg-primary-100' : 'hover:bg-gray-50'} max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:content-center max-sm:gap-x-3 max-sm:gap-y-0.5 max-sm:px-3 max-sm:py-2`}
    >
      {columns.map((column) => {
        const mobile = column.mobile ?? 'hidden';
        return (
          <td
            key={column.key}
            role="cell"
            className={`overflow-hidden px-4 py-2 text-gray-700 ${MOBILE_CELL[mobile]} ${column.className ?? ''}`}
          >
            {mobile === 'detail' && (
              // The column's name before the value, where the phone layout has no header row.
              <span className="text-gray-500 sm:hidden">{column.header}: </span>
            )}
            {column.cell(row)}
          </td>
        );
      })}
      {rowActions && (
        // Kept in view on narrow screens, where the wide table scrolls sideways.
        <td
          role="cell"
          className="sticky right-0 bg-white px-2 py-2 shadow-[-8px_0_8px_-8px_rgba(0,0,0,0.15)] max-sm:static max-sm:col-start-2 max-sm:row-span-3 max-sm:row-start-1 max-sm:self-center max-sm:bg-transparent max-sm:p-0 max-sm:shadow-none lg:shadow-none"
        >
          {rowActions(row)}
        </td>
      )}
    </tr>
  );
}) as <Row>(props: {
  row: Row;
  rowIndex: number;
  columns: readonly DataTableColumn<Row>[];
  rowActions?: (row: Row) => ReactNode;
  height: number | undefined;
  highlighted: boolean;
}) => ReactNode;
