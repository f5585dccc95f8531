import { AlertTriangle, CheckCircle2, Clock } from 'lucide-react';
import type { ExpiryState } from '../../../lib/expiry.ts';

const ICONS: Record<ExpiryState, typeof Clock> = {
  overdue: AlertTriangle,
  soon: Clock,
  ok: CheckCircle2,
};

/** The renewal badge: overdue, soon or ok (spec §2, §4), as words and icon, not colour alone. */
export function ExpiryBadge({ state }: { state: ExpiryState }) {
  const Icon = ICONS[state];
  return (
    <span
      data-tone={`expiry-${state}`}
      className="inline-flex shrink-0 items-center gap-1 rounded-full bg-tone-100 px-2 py-0.5 text-xs font-medium text-tone-800"
    >
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {state}
    </span>
  );
}
