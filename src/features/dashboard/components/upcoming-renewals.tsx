import { CalendarCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.ts';
import { classifyExpiry } from '../../../lib/expiry.ts';
import { formatDate } from '../../../lib/format.ts';
import type { DashboardDocument } from '../api/dashboard-document.ts';
import { DashboardPanel } from './dashboard-panel.tsx';
import { ExpiryBadge } from './expiry-badge.tsx';

/** The five documents expiring first, with overdue / soon / ok badges and Manage (spec §2). */
export function UpcomingRenewals({
  documents,
  today,
}: {
  documents: DashboardDocument[];
  /** The UTC date the badges are computed for (the counters use the same day). */
  today: string;
}) {
  return (
    <DashboardPanel
      id="renewals-heading"
      title="Upcoming Renewals"
      linkText="Manage"
      linkTo={paths.documentsByExpiry}
    >
      {documents.length === 0 ? (
        <div className="flex flex-col items-center gap-2 px-4 py-10 text-center">
          <CalendarCheck className="h-8 w-8 text-gray-400" aria-hidden="true" />
          <p className="text-sm text-gray-600">No upcoming renewals.</p>
          <p className="text-xs text-gray-500">
            Give a document an expiry date and it shows up here before it runs out.
          </p>
        </div>
      ) : (
        <ul className="divide-y divide-gray-100">
          {documents.map((document) => {
            const state = classifyExpiry(document.expiry_date, today);
            return (
              <li key={document.id}>
                <Link
                  to={paths.document(document.id)}
                  className="flex items-center gap-3 px-4 py-3 hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-primary-600"
                >
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium text-gray-900">
                      {document.name}
                    </span>
                    <span className="block text-xs text-gray-500">
                      {document.category} · Expires {formatDate(document.expiry_date)}
                    </span>
                  </span>
                  {state && <ExpiryBadge state={state} />}
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </DashboardPanel>
  );
}
