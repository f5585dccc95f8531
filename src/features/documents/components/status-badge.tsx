import { AlertCircle, CheckCircle2, Clock, RefreshCw } from 'lucide-react';
import { classifyExpiry } from '../../../lib/expiry.ts';

export interface StatusBadgeProps {
  /** The document's status, as stored (spec §4: Active, set at upload). */
  status: string;
  /** Its expiry date: an "all is well" mark is not drawn beside an overdue or expiring one. */
  expiryDate?: string | null;
  /** Someone is renewing it (10_renewals.sql): said under the status. */
  renewalInProgress?: boolean;
  /** The UTC date to classify the expiry date for (tests). */
  today?: string;
}

/**
 * A document's status (spec §4): the stored value in its own words, green for Active, yellow
 * for Expiring Soon, red for anything else, with a distinct icon so that it never relies on
 * colour alone. Beside an overdue or expiring expiry date, Active is drawn plain (no green, no
 * check mark): the status says the document is in use, not that all is well, and the Expiry
 * Date column beside it says what is not. A renewal in progress is said under it.
 */
export function StatusBadge({ status, expiryDate, renewalInProgress, today }: StatusBadgeProps) {
  const expiry = classifyExpiry(expiryDate, today);
  const needsAttention = expiry === 'overdue' || expiry === 'soon';
  const { tone, Icon } =
    status === 'Active'
      ? needsAttention
        ? { tone: 'gray', Icon: null }
        : { tone: 'status-active', Icon: CheckCircle2 }
      : status === 'Expiring Soon'
        ? { tone: 'status-expiring', Icon: Clock }
        : { tone: 'status-other', Icon: AlertCircle };
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <span
        data-tone={tone}
        data-status-mark={Icon ? 'shown' : 'plain'}
        className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${
          Icon ? 'bg-tone-100 text-tone-800' : 'border border-gray-300 text-gray-700'
        }`}
      >
        {Icon && <Icon className="h-3.5 w-3.5" aria-hidden="true" />}
        {status}
      </span>
      {renewalInProgress && (
        <span
          data-tone="info"
          className="inline-flex items-center gap-1 text-xs font-medium text-tone-800"
        >
          <RefreshCw className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
          Renewal in progress
        </span>
      )}
    </span>
  );
}
