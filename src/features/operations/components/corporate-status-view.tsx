import type { ReactNode } from 'react';
import type { Tone } from '../../../components/ui/tone.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import type { CorporateStatus } from '../api/fetch-corporate-status.ts';
import type { FilingState } from '../lib/filing-state.ts';

const FILING_STATE_LABELS: Record<FilingState, { text: string; tone: Tone }> = {
  unknown: { text: 'Unknown', tone: 'gray' },
  overdue: { text: 'Overdue', tone: 'danger' },
  'due-soon': { text: 'Due Soon', tone: 'warning' },
  current: { text: 'Current', tone: 'success' },
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
            data-tone={FILING_STATE_LABELS[filing].tone}
            className="rounded-full bg-tone-100 px-2 py-0.5 text-xs font-medium text-tone-800"
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
