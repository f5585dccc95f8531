import { AlertTriangle, CheckCircle2, Clock } from 'lucide-react';
import type { ExpiryState } from '../../../lib/expiry.ts';

const STYLES: Record<ExpiryState, { tone: string; Icon: typeof Clock }> = {
  overdue: { tone: 'bg-red-100 text-red-800', Icon: AlertTriangle },
  soon: { tone: 'bg-yellow-100 text-yellow-800', Icon: Clock },
  ok: { tone: 'bg-green-100 text-green-800', Icon: CheckCircle2 },
};

/** The renewal badge: overdue, soon or ok (spec §2, §4), as words and icon, not colour alone. */
export function ExpiryBadge({ state }: { state: ExpiryState }) {
  const { tone, Icon } = STYLES[state];
  return (
    <span
      className={`inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}
    >
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {state}
    </span>
  );
}
