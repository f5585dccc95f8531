import { AlertTriangle, Clock } from 'lucide-react';
import { formatDate } from '../../../lib/format.ts';
import type { FilingState } from '../lib/filing-state.ts';

/** Filing Overdue! or Filing Due Soon with the due date (product-spec §4); nothing otherwise. */
export function FilingBanner({ state, dueDate }: { state: FilingState; dueDate: string | null }) {
  if (state !== 'overdue' && state !== 'due-soon') return null;
  const overdue = state === 'overdue';
  const Icon = overdue ? AlertTriangle : Clock;
  return (
    <div
      role="alert"
      data-tone={overdue ? 'danger' : 'warning'}
      className="flex items-start gap-3 rounded-md border border-tone-300 bg-tone-50 p-3 text-tone-800"
    >
      <Icon className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
      <div>
        <p className="font-semibold">{overdue ? 'Filing Overdue!' : 'Filing Due Soon'}</p>
        <p className="text-sm">
          {overdue ? 'Your annual filing was due on ' : 'Your annual filing is due on '}
          {formatDate(dueDate)}.
        </p>
      </div>
    </div>
  );
}
