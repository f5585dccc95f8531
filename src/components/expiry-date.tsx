import { AlertTriangle, CheckCircle2, Clock } from 'lucide-react';
import { classifyExpiry, daysUntil, utcDateString, type ExpiryState } from '../lib/expiry.ts';
import { formatDate } from '../lib/format.ts';

const ICONS: Record<ExpiryState, typeof Clock> = {
  overdue: AlertTriangle,
  soon: Clock,
  ok: CheckCircle2,
};

/** The state of an expiry date in words: "Overdue", "Expires today", "Expires in 3 days". */
export function expiryStateText(date: string, today: string = utcDateString()): string {
  const state = classifyExpiry(date, today);
  const days = daysUntil(date, today);
  if (state === 'overdue') return 'Overdue';
  if (state === 'soon')
    return days === 0 ? 'Expires today' : `Expires in ${days} ${days === 1 ? 'day' : 'days'}`;
  return 'OK';
}

/**
 * An expiry date with its state (spec §4 classification) in colour, icon and text, so that it
 * reads without colour too: overdue in red, expiring soon in yellow, later dates plain. A
 * document without a date shows N/A.
 */
export function ExpiryDate({ date, today }: { date: string | null; today?: string }) {
  const state = classifyExpiry(date, today);
  if (!date || !state) return <span className="whitespace-nowrap">N/A</span>;
  const Icon = ICONS[state];
  const text = expiryStateText(date, today);
  return (
    <span
      data-tone={`expiry-${state}`}
      data-expiry-state={state}
      className={`inline-flex min-w-0 flex-col leading-tight ${state === 'ok' ? 'text-gray-700' : 'text-tone-800'}`}
    >
      <span className="inline-flex items-center gap-1 whitespace-nowrap">
        <Icon
          className={`h-3.5 w-3.5 shrink-0 ${state === 'ok' ? 'text-gray-400' : ''}`}
          aria-hidden="true"
        />
        {formatDate(date)}
      </span>
      <span className={`text-xs whitespace-nowrap ${state === 'ok' ? 'sr-only' : 'font-medium'}`}>
        {text}
      </span>
    </span>
  );
}
