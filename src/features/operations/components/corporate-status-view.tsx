import type { ReactNode } from 'react';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import type { CorporateStatus } from '../api/fetch-corporate-status.ts';
import type { FilingState } from '../lib/filing-state.ts';

const FILING_STATE_LABELS: Record<FilingState, { text: string; tone: string }> = {
  unknown: { text: 'Unknown', tone: 'bg-gray-100 text-gray-700' },
  overdue: { text: 'Overdue', tone: 'bg-red-100 text-red-800' },
  'due-soon': { text: 'Due Soon', tone: 'bg-yellow-100 text-yellow-800' },
  current: { text: 'Current', tone: 'bg-green-100 text-green-800' },
};

const NOT_SET = 'Not set';

/** View mode of the Corporate Status Dashboard. */
export function CorporateStatusView({
  status,
  filing,
}: {
  status: CorporateStatus | null;
  filing: FilingState;
}) {
  const rows: { label: string; value: ReactNode }[] = [
    { label: 'Entity Name', value: status?.entity_name || NOT_SET },
    { label: 'Entity Type', value: status?.entity_type ?? NOT_SET },
    { label: 'Status', value: status?.status ?? NOT_SET },
    { label: 'Filing Date', value: formatDate(status?.filing_date) || NOT_SET },
    {
      label: 'Next Due Date',
      value: (
        <span className="inline-flex flex-wrap items-center gap-2">
          {formatDate(status?.next_due_date) || NOT_SET}
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${FILING_STATE_LABELS[filing].tone}`}
          >
            Filing: {FILING_STATE_LABELS[filing].text}
          </span>
        </span>
      ),
    },
    { label: 'Annual Report Status', value: status?.annual_report_status ?? NOT_SET },
    {
      label: 'Last Updated',
      value: status ? formatDateTime(status.last_updated) : 'Never',
    },
  ];
  return (
    <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
      {rows.map(({ label, value }) => (
        <div key={label} className="min-w-0">
          <dt className="font-medium text-gray-600">{label}</dt>
          <dd className="break-words text-gray-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
